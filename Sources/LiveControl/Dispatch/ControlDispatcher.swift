import Foundation
import HostCore
import JackIO

/// The one way into a running session for every front end: a command in,
/// the session changed, and every change announced to every listener, so a
/// change made from one surface shows on all of them (console echo, OSC
/// subscribers, `status`). A refusal is announced too (to the refusal
/// listeners: the console shows one from another front end, so nothing
/// fails unseen).
///
/// Runs on the thread that owns the session (the run loop's): a front end
/// that reads on a thread of its own (the console, OSC) hands its commands
/// to that thread. MIDI controllers are applied by the realtime thread
/// itself and announced from here by `pollMIDI`. Parameters and bypass still reach the realtime
/// thread through the session's lock-free command queue, and edits through
/// a new plan; nothing here runs on the realtime thread. Listeners are
/// called in the order they were added, on that thread, once the change is
/// made; a listener must not dispatch.
package final class ControlDispatcher {
    package typealias Listener = (ControlChange) -> Void
    package typealias RefusalListener = (ControlError) -> Void

    /// Names a listener for `removeListener`.
    package struct ListenerID: Hashable, Sendable {
        private let number: Int
        /// Another surface's listeners are numbered the same way (a supervisor's).
        package init(number: Int) { self.number = number }
    }

    package let session: LiveSession
    private var listeners: [(id: ListenerID, listener: Listener)] = []
    private(set) var refusalListeners: [RefusalListener] = []
    private var listenersAdded = 0
    /// Adds what a front end counts itself to every status it answers
    /// (OSC's ignored messages), so `status --json` shows it from any front end.
    package var amendStatus: ((inout LiveStatus) -> Void)?
    /// The patch file the run plays, for `save` and `reload` (nil: neither
    /// is available, as in a session built in code).
    package var patchFile: LivePatchFile?
    /// The setlist a run plays, for `next`, `prev`, `load` and MIDI program
    /// changes (nil: a run of one patch, which refuses them).
    package var setlist: LiveSetlist?
    /// The folder paths from remote front ends (OSC, the web) are confined to
    /// (`fxhost run --files DIR`); nil: the patch file's folder, or the
    /// working directory for a run without one.
    package var remoteFolder: String?
    /// Who started the bounce under way: its end is announced as theirs.
    private var bounceSource: ControlSource?

    package init(session: LiveSession) {
        self.session = session
    }

    @discardableResult
    package func addListener(_ listener: @escaping Listener) -> ListenerID {
        listenersAdded += 1
        let id = ListenerID(number: listenersAdded)
        listeners.append((id, listener))
        return id
    }

    package func removeListener(_ id: ListenerID) {
        listeners.removeAll { $0.id == id }
    }

    /// Called with every command refused, from any front end, as it is refused.
    package func addRefusalListener(_ listener: @escaping RefusalListener) {
        refusalListeners.append(listener)
    }

    /// Carries out `command` for `source`. A refused command changes
    /// nothing, announces nothing and throws the session's sentence.
    @discardableResult
    package func dispatch(_ command: ControlCommand, from source: ControlSource) throws(ControlError) -> ControlResult {
        let kinds: [ControlChange.Kind]
        do throws(ControlError.Reason) {
            try refuseSpillNodes(command)
            switch command {
            case .status:
                var status = session.status()
                addSetlist(to: &status)
                amendStatus?(&status)
                return .status(status)
            case .state(let node):
                do {
                    var state = try SessionState(session: session, node: node)
                    state.setlist = setlist?.position
                    // A setlist's spill is the old patch ringing out: no control of the patch playing.
                    state.nodes.removeAll { SetlistSpill.isSpillNode($0.name) }
                    state.connections.removeAll { SetlistSpill.isSpillNode($0.from) || SetlistSpill.isSpillNode($0.to) }
                    return .state(state)
                } catch {
                    throw ControlError.Reason.session(error)
                }
            case .quit:
                return .quit
            case .mappings:
                return .mappings(session.midiControl, learning: session.midiLearning, port: session.midiPortFullName)
            default:
                kinds = try perform(try confined(command, from: source))
            }
        } catch {
            let refusal = ControlError(command: command, source: source, reason: error)
            for listener in refusalListeners { listener(refusal) }
            throw refusal
        }
        if case .bounce = command { bounceSource = source }
        let changes = kinds.map { ControlChange($0, from: source) }
        announce(changes)
        return .changed(changes)
    }

    /// A setlist's spill is the old patch ringing out until its fade ends:
    /// no front end may address its nodes (they vanish at the fade's end).
    private func refuseSpillNodes(_ command: ControlCommand) throws(ControlError.Reason) {
        guard setlist != nil, let node = command.namedNodes.first(where: SetlistSpill.isSpillNode) else { return }
        throw .refused("node `\(node)` is the previous patch ringing out after a setlist switch, and takes no commands")
    }

    /// A setlist run's position, and its spill left out: a spill is the old
    /// patch ringing out, no part of the patch playing.
    func addSetlist(to status: inout LiveStatus) {
        guard let setlist else { return }
        status.setlist = setlist.position
        status.parameters = status.parameters.filter { !SetlistSpill.isSpillNode($0.key) }
        status.properties = status.properties.filter { !SetlistSpill.isSpillNode($0.key) }
    }

    /// Once the bounce under way has ended (or, with `wait`, when it ends):
    /// live playing resumes and its end is announced, as made by whoever
    /// started it. nil while it runs, or when there is none. The run loop
    /// calls this between commands.
    @discardableResult
    package func finishBounce(wait: Bool = false) -> ControlChange? {
        guard let result = session.finishBounce(wait: wait) else { return nil }
        let kind: ControlChange.Kind
        switch result {
        case .success(let summary):
            kind = .bounceFinished(ControlChange.Bounced(
                files: summary.outputs.compactMap(\.file), seconds: summary.durationSeconds,
                elapsedSeconds: summary.elapsedSeconds, speed: summary.speed))
        case .failure(let error):
            kind = .bounceFailed(reason: error.description)
        }
        let change = ControlChange(kind, from: bounceSource ?? .console)
        bounceSource = nil
        announce([change])
        return change
    }

    /// Announces, from `.host`, every tap whose file could not be written
    /// (a full disk) since the last call: its writer wakes the run loop,
    /// which calls this between commands, so every front end hears of it
    /// at once. Returns what it announced.
    @discardableResult
    package func announceTapFailures() -> [ControlChange] {
        let changes = session.takeTapFailures().map {
            ControlChange(.tapFailed(ControlChange.Take($0), reason: $0.error ?? "the file could not be written"), from: .host)
        }
        announce(changes)
        return changes
    }

    /// The folder remote paths are confined to, now: a setlist's own folder
    /// (the same for every patch, and for the supervisor, which fixes it once).
    package var remotePaths: RemotePaths {
        RemotePaths(folder: remoteFolder
            ?? setlist.map { LivePatchFile.folder(of: LivePatchFile.absolute($0.setlist.path)) }
            ?? patchFile?.path.map(LivePatchFile.folder(of:))
            ?? FileManager.default.currentDirectoryPath)
    }

    /// `command` with the paths a remote front end named resolved inside
    /// `remotePaths`' folder, or refused; other sources' commands as they are.
    func confined(_ command: ControlCommand, from source: ControlSource) throws(ControlError.Reason) -> ControlCommand {
        guard source.isRemote else { return command }
        let paths = remotePaths
        func inside(_ path: String, _ use: RemotePaths.Use) throws(ControlError.Reason) -> String {
            switch paths.resolve(path, for: use) {
            case .success(let resolved): return resolved
            case .failure(let refusal): throw .refused(refusal.sentence)
            }
        }
        switch command {
        case .tap(let reference, let file):
            return .tap(reference, file: try inside(file, .audioWritten))
        case .bounce(let file, let from, let to, let force):
            return .bounce(file: try inside(file, .audioWritten), from: from, to: to, force: force)
        case .save(let file?, let force):
            return .save(file: try inside(file, .patch), force: force)
        case .set(let node, let parameter, .label(let text)) where session.isMessageParameter(node: node, name: parameter):
            return .set(node: node, parameter: parameter, value: .label(try inside(text, .audioRead)))
        default:
            return command
        }
    }

    /// What `save` writes and where, checked: an unforced `save FILE`
    /// refuses a file that exists (checked again as the file is renamed
    /// into place: no race replaces one).
    func saveDraft(file: String?, force: Bool) throws(ControlError.Reason) -> PatchSaveDraft {
        guard let patchFile else { throw .patchFile(.saveNeedsFile) }
        if let file { try Self.refuseExisting(file, force: force, command: "save", asked: file) }
        do {
            return try patchFile.draft(session, to: file, replacing: force || file == nil)
        } catch {
            throw .patchFile(error)
        }
    }

    /// Refuses an existing `file` unless `force`: `save FILE` never replaces
    /// a file by accident (a symbolic link counts). `bounce FILE` is checked
    /// by the session, after its own conflicts (a live tap, a source).
    private static func refuseExisting(_ file: String, force: Bool, command: String, asked: String) throws(ControlError.Reason) {
        var info = stat()
        // A FIFO, a device or a directory there gets the save's own sentence.
        guard !force, lstat(file, &info) == 0,
              info.st_mode & S_IFMT == S_IFREG || info.st_mode & S_IFMT == S_IFLNK else { return }
        throw .refused("`\(file)` exists; `\(command)` replaces a file only when forced (`\(command) \(asked) --force`)")
    }

    private func perform(_ command: ControlCommand) throws(ControlError.Reason) -> [ControlChange.Kind] {
        if case .save(let file, let force) = command {
            let draft = try saveDraft(file: file, force: force)
            do {
                try draft.write()
            } catch {
                throw .patchFile(error)
            }
            patchFile?.remember(draft)
            return [.saved(file: draft.target)]
        }
        let move: SetlistMove? = switch command {
        case .nextPatch: .next
        case .previousPatch: .previous
        case .loadPatch(let choice): .chosen(choice)
        default: nil
        }
        if let move {
            guard let setlist, let patchFile else {
                throw .refused("this run plays one patch, not a setlist, so there is no other patch to switch to")
            }
            return try setlist.move(move, session: session, patchFile: patchFile)
        }
        if case .restore(let node) = command {
            // Only a supervisor leaves nodes out, and it carries `restore` out itself.
            guard session.graph.node(named: node) != nil else {
                throw .session(.unknownNode(node, suggestion: Suggestion.didYouMean(node, in: session.graph.nodes.map(\.name))))
            }
            throw .refused("node `\(node)` was not left out by a crash, so there is nothing to restore")
        }
        do {
            return try performOnSession(command)
        } catch {
            throw .session(error)
        }
    }

    private func performOnSession(_ command: ControlCommand) throws(LiveSessionError) -> [ControlChange.Kind] {
        switch command {
        case .set(let node, let parameter, let value) where session.isMessageParameter(node: node, name: parameter):
            let sent = try session.setMessageParameter(node: node, name: parameter, value: value)
            return [.property(node: node, property: parameter, value: sent)]
        case .set(let node, let parameter, let value):
            let stored = try session.setParameter(node: node, symbol: parameter, value: value)
            return [.parameter(node: node, parameter: parameter, value: stored)]
        case .bypass(let node, let on):
            try session.setBypass(node: node, on)
            // A node a crash left out is the user's again once they choose (`restore` is `bypass NODE off`).
            if patchFile?.leftOut[node] != nil { patchFile?.leftOut[node] = on ? true : nil }
            return [.bypass(node: node, on: on)]
        case .preset(let node, let name):
            try session.applyPreset(node: node, name: name)
            return [.presetApplied(node: node, name: name)]
        case .savePreset(let node, let name):
            let bundle = try session.savePreset(node: node, name: name)
            return [.presetSaved(node: node, name: name, bundle: bundle)]
        case .tap(let reference, let file):
            // The file actually written: a numbered one when `file` existed.
            let written = try session.startTap(reference, file: file)
            return [.tapStarted(reference, file: written)]
        case .untap(let reference):
            return try session.stopTaps(node: reference.node, port: reference.port)
                .map { .tapStopped(ControlChange.Take($0)) }
        case .pauseTap(let reference):
            return try session.pauseTaps(node: reference.node, port: reference.port)
                .map { .tapPaused(ControlChange.Take($0)) }
        case .resumeTap(let reference):
            return try session.resumeTaps(node: reference.node, port: reference.port)
                .map { .tapResumed(ControlChange.Take($0)) }
        case .connect(let from, let to, let gain):
            try session.connect(from, to: to, gainDecibels: gain)
            return [.connected(from: from, to: to, gainDecibels: gain)]
        case .disconnect(let from, let to):
            try session.disconnect(from, to: to)
            return [.disconnected(from: from, to: to)]
        case .bounce(let file, let from, let to, let force):
            let bounce = try session.startBounce(to: file, startSeconds: from, endSeconds: to, replacing: force)
            return [.bounceStarted(files: bounce.files)]
        case .cancelBounce:
            try session.cancelBounce()
            return []
        case .reload(let text):
            guard let patchFile else {
                return [.patchRefused(reason: "this session has no patch file, so there is nothing to reload")]
            }
            return try patchFile.reload(session, text: text)
        case .learn(let node, let parameter):
            try session.learn(node: node, parameter: parameter)
            return [.learning(node: node, parameter: parameter)]
        case .unlearn(let node, let parameter):
            try session.unlearn(node: node, parameter: parameter)
            return [.unmapped(node: node, parameter: parameter)]
        case .scene(let name, let glide):
            return try session.applyScene(name, glide: glide).map(ControlChange.Kind.init)
        case .feedback:
            // Nothing changes: the controllers are told what already is.
            try session.sendMIDIFeedback()
            return []
        case .tempo(let beatsPerMinute):
            try session.setTempo(beatsPerMinute)
            return [.tempo(beatsPerMinute)]
        case .tempoTap:
            switch try session.tapTempo() {
            case .tempo(let beatsPerMinute): return [.tempo(beatsPerMinute)]
            case .counted(let taps): return [.tempoTapped(taps: taps)]
            }
        case .transport(let rolling):
            session.setTransportRolling(rolling)
            return [.transport(rolling: rolling)]
        case .status, .state, .quit, .mappings, .save, .restore, .nextPatch, .previousPatch, .loadPatch:
            return []
        }
    }

    func announce(_ changes: [ControlChange]) {
        for change in changes {
            for (_, listener) in listeners { listener(change) }
        }
    }
}
