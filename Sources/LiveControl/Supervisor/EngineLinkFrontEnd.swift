import Foundation
import Glibc
import HostCore
import JackIO
import Synchronization

/// The one front end of an engine process: its supervisor, over the link.
/// A thread of its own reads the supervisor's requests and wakes the host;
/// on the host's thread each is carried out on the engine's surface and
/// answered by its number. Every change and refusal the engine's
/// dispatcher announces, and every note, goes back as an event, before
/// the reply to the command that caused it. The link closing (the
/// supervisor gone, even killed) ends the run with every tap finalised.
package final class EngineLinkFrontEnd: LiveFrontEnd {
    private let link: EngineLink
    private let arrived = Mutex<Arrived>(Arrived())
    private let running = Atomic<Bool>(true)
    private var reader: PosixThread?
    private var surface: (any ControlSurface)?
    /// The session whose port connections the supervisor is kept told of.
    private let session: LiveSession?
    private var connectionsSent: JackConnections?
    /// When the connections were last listed (`LiveHost.now()`).
    private var connectionsRead = -Double.infinity
    /// The `finish` request to answer with the closing status, once the run has ended.
    package private(set) var finishRequest: Int?
    /// The plugin states this engine restored from snapshots, told to the supervisor with `ready`.
    package var restoredState: [LiveStatus.Crash.RestoredState]?

    private struct Arrived {
        var messages: [EngineMessage] = []
        var closed = false
    }

    package init(descriptor: Int32, session: LiveSession? = nil) {
        link = EngineLink(descriptor: descriptor)
        self.session = session
    }

    package func start(_ host: LiveHost) throws {
        let surface = host.surface
        self.surface = surface
        surface.addListener { [self] change in send(.event(.changes([change]))) }
        surface.addRefusalListener { [self] refusal in send(.event(.refusal(EngineRefusal(refusal)))) }
        let inbox = host.inbox
        reader = try PosixThread(name: "fxhost link") { [self] in read(waking: inbox) }
        _ = session?.takeConnectionChange()
        reportConnections()
        send(.event(.ready(EngineReadiness(remoteFolder: surface.remotePaths.folder, restoredState: restoredState))))
    }

    /// The reader's loop: wait for bytes, decode, hand over, wake the host.
    private func read(waking inbox: ControlInbox) {
        while running.load(ordering: .relaxed) {
            guard link.waitReadable(seconds: 0.2) else { continue }
            do {
                let messages = try link.receive()
                guard !messages.isEmpty else { continue }
                arrived.withLock { $0.messages += messages }
            } catch {
                arrived.withLock { $0.closed = true }
                inbox.wakeHost()
                return
            }
            inbox.wakeHost()
        }
    }

    package func service(now: Double) -> LiveFrontEndOutcome {
        guard let surface else { return .keepRunning }
        let (messages, closed) = arrived.withLock { arrived in
            defer { arrived.messages = [] }
            return (arrived.messages, arrived.closed)
        }
        if session?.takeConnectionChange() == true { reportConnections() }
        for case .request(let id, let request) in messages {
            if case .finish = request {
                finishRequest = id
                return .quit
            }
            send(.reply(id: id, answer(request, on: surface)))
        }
        return closed ? .quit : .keepRunning
    }

    private func answer(_ request: EngineRequest, on surface: any ControlSurface) -> EngineReply {
        switch request {
        case .command(let command, let source):
            // A command may be the one that crashes: the connections as
            // they are now (a callback's flag may not have come yet) reach the
            // supervisor first; read at most four times a second (a flood of
            // fader moves must not list every port of the server each time).
            if !command.isQuery, LiveHost.now() - connectionsRead >= 0.25 { reportConnections() }
            do {
                return .result(try surface.dispatch(command, from: source))
            } catch {
                return .refused(EngineRefusal(error))
            }
        case .status: return .status(surface.status())
        case .completion: return .completion(surface.completion)
        case .addMeterReader: return .reader(surface.addMeterReader())
        case .removeMeterReader(let reader):
            surface.removeMeterReader(reader)
            return .done
        case .meters(let reader): return .meters(surface.meters(reader).map { EngineMeter(node: $0.node, decibels: $0.decibels) })
        case .tapMeters(let reader): return .meters(surface.tapMeters(reader).map { EngineMeter(node: $0.node, decibels: $0.decibels) })
        case .activity:
            let activity = surface.activity
            return .activity(EngineActivity(dspLoadPercent: activity.dspLoadPercent, xruns: activity.xruns, bounce: activity.bounce))
        case .taps: return .taps(surface.taps)
        case .sourceOrigins: return .sourceOrigins(surface.sourceOrigins)
        case .snapshot: return .snapshot(surface.runningText, setlistPatch: surface.setlistPatch)
        case .draftSave(let command, let source):
            do {
                return .draft(try surface.draftSave(command, from: source))
            } catch {
                return .refused(EngineRefusal(error))
            }
        case .saved(let draft, let source):
            do {
                return .result(try surface.saved(draft, from: source))
            } catch {
                return .refused(EngineRefusal(error))
            }
        case .finish: return .done
        }
    }

    /// Tells the supervisor the engine's port connections, if they changed since it was last told.
    private func reportConnections() {
        guard let session, !session.serverHasShutDown else { return }
        connectionsRead = LiveHost.now()
        let connections = session.portConnections
        guard connections != connectionsSent else { return }
        connectionsSent = connections
        send(.event(.connections(connections)))
    }

    package func note(_ text: String, isWarning: Bool) {
        send(.event(.note(text, isWarning: isWarning)))
    }

    /// After the run: the closing status to the supervisor (the answer to
    /// its `finish`, or, when the run ended by itself, an `ended` event).
    package func report(closing status: LiveStatus, serverShutDown: Bool) {
        if let finishRequest {
            send(.reply(id: finishRequest, .status(status)))
        } else {
            send(.event(.ended(serverShutDown: serverShutDown, status: status)))
        }
    }

    package func stop() {
        running.store(false, ordering: .relaxed)
        reader?.join()
        reader = nil
    }

    /// A supervisor that has gone hears nothing; the run ends when its reader sees the link closed.
    private func send(_ message: EngineMessage) {
        try? link.send(message)
    }
}
