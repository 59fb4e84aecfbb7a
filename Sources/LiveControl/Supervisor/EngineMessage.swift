import HostCore
import JackIO

/// What a supervisor and its engine process say to each other over their
/// link (`EngineLink`): the supervisor asks (a front end's command, a
/// reading), the engine answers each request by its number, and tells of
/// what happened without being asked (changes, refusals, notes). Both ends
/// are the same executable, so the form is the types' own `Codable` one.
package enum EngineMessage: Codable, Sendable {
    case request(id: Int, EngineRequest)
    case reply(id: Int, EngineReply)
    case event(EngineEvent)
}

/// A supervisor's question to its engine.
package enum EngineRequest: Codable, Sendable {
    /// A front end's command, carried out by the engine's dispatcher.
    case command(ControlCommand, from: ControlSource)
    /// The status, taking the status line's peaks.
    case status
    case completion
    case addMeterReader
    case removeMeterReader(OutputPeakReaders.Reader)
    case meters(OutputPeakReaders.Reader)
    case tapMeters(OutputPeakReaders.Reader)
    case activity
    case taps
    case sourceOrigins
    /// The running session as patch text, for a restart.
    case snapshot
    /// `save`'s halves (`ControlSurface.draftSave`, `saved`): the supervisor writes the file between them.
    case draftSave(ControlCommand, from: ControlSource)
    case saved(PatchSaveDraft, from: ControlSource)
    /// End the run: every tap finalised; answered with the closing status.
    case finish
}

/// An engine's answer to one request.
package enum EngineReply: Codable, Sendable {
    case result(ControlResult)
    case refused(EngineRefusal)
    case status(LiveStatus)
    case completion(CompletionSource)
    case reader(OutputPeakReaders.Reader)
    case meters([EngineMeter])
    case activity(EngineActivity)
    case taps([LiveStatus.Tap])
    case sourceOrigins([String: Int?])
    /// nil: a session with no patch text (a `--chain`). A setlist run's
    /// patch name comes in the same reply: a restart must never pair one
    /// patch's text with another's name (and so its file).
    case snapshot(String?, setlistPatch: String?)
    case draft(PatchSaveDraft)
    case done
}

/// What an engine tells unasked, in the order it happened.
package enum EngineEvent: Codable, Sendable {
    /// The engine plays and its ports are connected: what it offers.
    case ready(EngineReadiness)
    case changes([ControlChange])
    case refusal(EngineRefusal)
    case note(String, isWarning: Bool)
    /// Every connection of the engine's ports, sent when it changed (by
    /// anyone), so a restart remakes them as they were.
    case connections(JackConnections)
    /// The engine's run ended by itself (the server shut down), with its closing status.
    case ended(serverShutDown: Bool, status: LiveStatus)
}

/// What a supervisor learns of a new engine once it plays.
package struct EngineReadiness: Codable, Sendable {
    /// Where paths from remote front ends are confined.
    package var remoteFolder: String
    /// The plugin states it restored from snapshots (a restart); nil: none.
    package var restoredState: [LiveStatus.Crash.RestoredState]?
}

/// One node's peaks per channel in dBFS; nil: silence (JSON has no -infinity).
package struct EngineMeter: Codable, Sendable {
    package var node: String
    package var decibels: [Double?]

    package init(node: String, decibels: [Double]) {
        self.node = node
        self.decibels = decibels.map { $0.isFinite ? $0 : nil }
    }

    package var reading: (node: String, decibels: [Double]) {
        (node, decibels.map { $0 ?? -.infinity })
    }
}

/// `ControlSurface.activity` as the link carries it.
package struct EngineActivity: Codable, Sendable {
    package var dspLoadPercent: Double
    package var xruns: Int
    package var bounce: LiveStatus.Bounce?
}

/// A refusal as the link carries it: the sentence, and an unknown node
/// kept apart (the web answers it with 404).
package struct EngineRefusal: Codable, Sendable {
    package var command: ControlCommand
    package var source: ControlSource
    package var sentence: String
    package var unknownNode: String?
    package var suggestion: String?

    package init(_ error: ControlError) {
        command = error.command
        source = error.source
        sentence = error.description
        if case .session(.unknownNode(let node, let suggestion)) = error.reason {
            unknownNode = node
            self.suggestion = suggestion
        }
    }

    package var error: ControlError {
        let reason: ControlError.Reason = unknownNode.map { .session(.unknownNode($0, suggestion: suggestion)) }
            ?? .refused(sentence)
        return ControlError(command: command, source: source, reason: reason)
    }
}
