import Foundation
import Glibc
import HostCore
import JackIO

/// A session played by an engine process this one supervises: front ends,
/// the run loop and the crash record stay here; the JACK client, the
/// plugins and the realtime thread live in the child (`EngineProcess`),
/// reached over the link in the command protocol's own types.
///
/// When the engine dies (a plugin's crash, a hang its hang watch turned
/// into one, a kill) the supervisor names the culprit from the child's
/// crash report, starts a new engine from the latest snapshot of the
/// running state (the text `save` would write) with the culprit bypassed,
/// and tells every front end in one sentence (`ControlChange.Kind.engineCrashed`).
/// A node stays out until `restore`. An engine that cannot start, or keeps
/// dying with no culprit to leave out, ends the run (`failure`).
package final class SupervisedEngine: HostedEngine, ControlSurface {
    /// This executable and the arguments that make it an engine, before `--`.
    package struct Launch: Sendable {
        package var executable: String
        package var arguments: [String]
        /// The JACK server the engine joins (nil: the default one), for the
        /// client this process holds while a bounce freewheels it.
        package var server: String?

        package init(executable: String, arguments: [String], server: String?) {
            self.executable = executable
            self.arguments = arguments
            self.server = server
        }
    }

    private let launch: Launch
    private var process: EngineProcess?
    private var nextRequest = 0
    private var replies: [Int: EngineReply] = [:]
    private var listeners: [(id: ControlDispatcher.ListenerID, listener: ControlDispatcher.Listener)] = []
    private var refusalListeners: [ControlDispatcher.RefusalListener] = []
    private var listenersAdded = 0
    package var amendStatus: ((inout LiveStatus) -> Void)?
    private var remoteFolder = FileManager.default.currentDirectoryPath
    private var notes: [(text: String, isWarning: Bool)] = []
    /// Front ends' meter readers, and the engine's reader each stands for now.
    private var readers: [OutputPeakReaders.Reader: OutputPeakReaders.Reader?] = [:]
    private var readersMade = 0
    /// The running state as last taken, for a restart, and whether a change came since.
    private var snapshot: String?
    private var snapshotStale = false
    private var snapshotTaken = -Double.infinity
    /// The host's time, which the patch text does not keep: set again after a restart.
    private var tempo: Double?
    private var rolling: Bool?
    /// The scene last switched to, which the patch text does not keep either.
    private var scene: String?
    /// The setlist's patch whose text `snapshot` is: set only with it, so a
    /// restart never plays one patch's text under another's name.
    package private(set) var setlistPatch: String?
    /// Every connection of the engine's ports as it last reported them (anyone's), remade after a restart.
    private var connections: JackConnections?
    private var crashes: [LiveStatus.Crash] = []
    private var leftOut: [String] = []
    /// Nodes left out after they crashed in instantiate(): an engine never
    /// makes their plugin (`StandInUnit`) until `restore` tries it again.
    private var standIns: [String] = []
    /// The crash report of the last engine that could not start, if it wrote one.
    private var startReport: EngineCrashReport?
    /// Crashes met before front ends listened (at start-up), announced at the first poll.
    private var unannounced: [ControlChange] = []
    /// When crashes that named no node happened (seconds since the start).
    private var unnamedCrashes: [Double] = []
    /// The taps as last read, for the takes a restarted engine goes on with.
    private var lastTaps: [LiveStatus.Tap] = []
    private var tapsRead = -Double.infinity
    /// The region the engines' tap rings live in, kept across restarts.
    private let sharedTakes = SharedTakes()
    /// The region the engines' peak cells lie in: this process alone takes them.
    private let sharedMeters = SharedMeters()
    /// The silence each take was given across restarts, by file.
    private var gaps: [String: [LiveStatus.Tap.Gap]] = [:]
    private var ended: (serverShutDown: Bool, status: LiveStatus)?
    /// The run is ending (`finish`), or an engine is being started: a crash then is not restarted.
    private var finishing = false
    private var startingEngine = false
    /// Held while the engine bounces: a server whose freewheeling client dies
    /// is wedged, so the engine stops at a crash, and this client ends the
    /// freewheel before the engine is killed.
    private var keeper: FreewheelKeeper?
    /// The takes the running engine was handed to go on with, and how long
    /// each file was then.
    private var handedTakes: [String: (continuation: TakeContinuation, seconds: Double)] = [:]
    /// Each file and MIDI-file source's origin on the server's clock, as
    /// last read (nil: not known yet): a restarted engine plays them on
    /// from there (`--engine-resume`).
    package private(set) var sourceOrigins: [String: Int?] = [:]
    /// Called through every wait below (`HostedEngine.keepAliveWhileWaiting`).
    private var beat: () -> Void = {}
    private var lastStatus: LiveStatus?
    /// Seconds the engines before this one played, and when this one started playing.
    private var playedBefore = 0.0
    private var engineStartedAt = LiveHost.now()
    private let startedAt = LiveHost.now()
    package private(set) var failure: String?
    /// Where engines keep their plugins' state snapshots, and what the latest one restored.
    private var stateFolder: EngineStateFolder?
    private var restoredState: [LiveStatus.Crash.RestoredState]?

    /// How long an engine may take to answer one request before it is taken for hung.
    private static let answerSeconds = 30.0
    /// How long an engine may take to start playing.
    private static let startSeconds = 60.0
    /// A change is in the snapshot within this long (or before the next command).
    private static let snapshotSeconds = 0.05
    /// The taps are read this often while one has yet to record its first
    /// frame, or just after a tap command (their clocks, the frames skipped
    /// while paused, settle then); otherwise every `idleTapSeconds`, so an
    /// idle host sleeps.
    private static let tapSeconds = 0.5
    private static let idleTapSeconds = 5.0
    /// Until when taps are read often, after a tap command.
    private var tapsWatchedUntil = -Double.infinity
    /// Crashes with no culprit to leave out, at most, in `crashWindowSeconds`: then the run ends.
    private static let unnamedCrashesAllowed = 3
    private static let crashWindowSeconds = 60.0

    package init(launch: Launch) {
        self.launch = launch
    }

    // MARK: HostedEngine

    package var surface: any ControlSurface { self }
    package var wakeDescriptors: [Int32] {
        guard let process else { return [sharedTakes.notifier.descriptor] }
        return [process.link.descriptor, process.crashDescriptorHere, sharedTakes.notifier.descriptor]
    }

    /// Starts the first engine; throws why it could not play.
    package func start() throws {
        do {
            stateFolder = try EngineStateFolder()
        } catch {
            notes.append((error.description, true))
        }
        sharedTakes.start()
        let began = LiveHost.now()
        // Front ends listen once the engine plays: they hear of these at the first poll.
        unannounced = try startEngineLeavingOut(restartingFrom: nil).map {
            recordStandIn($0, verb: "started", seconds: LiveHost.now() - began)
        }
    }

    package func connectPorts() throws {}  // the engine connects its own, as it starts and after each restart

    package func poll() throws {
        if !unannounced.isEmpty {
            announce(unannounced)
            unannounced = []
        }
        announceTakeFailures()
        guard let process else { return }
        do {
            handle(try process.link.receive())
        } catch {
            engineLost()
            return
        }
        if process.hasCrashReport || process.hasEnded {
            engineLost()
            return
        }
        if snapshotStale, LiveHost.now() - snapshotTaken >= Self.snapshotSeconds { takeSnapshot() }
        if LiveHost.now() >= tapsDue { readTaps() }
    }

    /// When the taps are next read.
    private var tapsDue: Double {
        let settling = LiveHost.now() < tapsWatchedUntil || lastTaps.contains { $0.state == .recording && $0.startFrame == nil }
            || sourceOrigins.values.contains { $0 == nil }
        return tapsRead + (settling ? Self.tapSeconds : Self.idleTapSeconds)
    }

    package var nextDeadline: Double? {
        guard process != nil else { return nil }
        return min(tapsDue, snapshotStale ? snapshotTaken + Self.snapshotSeconds : .infinity)
    }

    package var serverHasShutDown: Bool { ended?.serverShutDown ?? false }
    package func reconnect() throws(LiveSessionError) {}  // the engine waits for its server itself (--reconnect)
    package func announceEnded() {}  // the engine announces its own, as events

    package func keepAliveWhileWaiting(_ beat: @escaping () -> Void) { self.beat = beat }

    package func takeNotes() -> [(text: String, isWarning: Bool)] {
        defer { notes = [] }
        return notes
    }

    package func finish() throws -> LiveStatus {
        finishing = true
        var status: LiveStatus
        if let ended {
            status = ended.status
        } else if process != nil, case .status(let closing)? = try? request(.finish, seconds: Self.startSeconds) {
            status = closing
        } else {
            status = lastStatus ?? .unavailable
            status.taps = lastTaps
        }
        process?.wait(seconds: 10, beating: beat)
        process?.kill(beating: beat)
        if process?.hasEnded ?? false { finishTakes() }
        sharedTakes.stop()  // every take closed: the run ends
        process = nil
        stateFolder = nil
        amend(&status)
        return status
    }

    // MARK: ControlSurface

    package func dispatch(_ command: ControlCommand, from source: ControlSource) throws(ControlError) -> ControlResult {
        switch command {
        case .quit:
            return .quit
        case .restore(let node) where standIns.contains(node), .bypass(let node, false) where standIns.contains(node):
            return try makeAgain(node, from: source)
        case .restore(let node) where leftOut.contains(node):
            let result = try forward(.bypass(node: node, on: false), from: source)
            restored(node, from: source)
            if case .changed(let changes) = result {
                return .changed(changes + [ControlChange(.restored(node: node), from: source)])
            }
            return result
        case .save:
            return try save(command, from: source)
        case .bounce:
            // Held before the server freewheels: a crash at any moment of the bounce is covered.
            if keeper == nil {
                do {
                    keeper = try FreewheelKeeper(server: launch.server)
                } catch {
                    let refusal = ControlError(command: command, source: source, reason: .refused(
                        "the bounce needs a JACK client of fxhost's own to end the freewheel if a plugin crashes, and \(error)"))
                    for listener in refusalListeners { listener(refusal) }
                    throw refusal
                }
            }
            do {
                return try forward(command, from: source)
            } catch {
                keeper = nil
                throw error
            }
        default:
            // Every change before this command is in the restart's state
            // before the command runs (it may be the one that crashes); what
            // it changes itself is taken at the next poll, within `snapshotSeconds`.
            if snapshotStale, !command.isQuery { takeSnapshot() }
            var result = try forward(command, from: source)
            if command.changesTaps {
                readTaps()
                tapsWatchedUntil = LiveHost.now() + 2
            }
            if case .status(var status) = result {
                amend(&status)
                lastStatus = status
                result = .status(status)
            }
            return result
        }
    }

    private func forward(_ command: ControlCommand, from source: ControlSource) throws(ControlError) -> ControlResult {
        switch try ask(.command(command, from: source), for: command, from: source) {
        case .result(let result): return result
        default: throw ControlError(command: command, source: source, reason: .refused("the engine answered out of turn"))
        }
    }

    /// The engine's answer to `request`, made for `command`: a refusal (the
    /// engine's, announced by it as an event, or the link's, announced here) is thrown.
    private func ask(_ request: EngineRequest, for command: ControlCommand,
                     from source: ControlSource) throws(ControlError) -> EngineReply {
        let reply: EngineReply
        do {
            do {
                reply = try self.request(request)
            } catch .engineLost where command.isQuery {
                reply = try self.request(request)  // a question is asked again of the new engine
            }
        } catch {
            try refuse(command, from: source, .refused(error.description))
        }
        if case .refused(let refusal) = reply { throw refusal.error }
        return reply
    }

    private func refuse(_ command: ControlCommand, from source: ControlSource, _ reason: ControlError.Reason) throws(ControlError) -> Never {
        let refusal = ControlError(command: command, source: source, reason: reason)
        for listener in refusalListeners { listener(refusal) }
        throw refusal
    }

    /// `save`: the engine composes the text, this process writes the file
    /// (the patch file is the supervisor's), and the engine remembers it.
    private func save(_ command: ControlCommand, from source: ControlSource) throws(ControlError) -> ControlResult {
        let draft = try draftSave(command, from: source)
        do {
            try draft.write()
        } catch {
            try refuse(command, from: source, .patchFile(error))
        }
        return try saved(draft, from: source)
    }

    package func draftSave(_ command: ControlCommand, from source: ControlSource) throws(ControlError) -> PatchSaveDraft {
        guard case .draft(let draft) = try ask(.draftSave(command, from: source), for: command, from: source) else {
            try refuse(command, from: source, .refused("the engine answered out of turn"))
        }
        return draft
    }

    package func saved(_ draft: PatchSaveDraft, from source: ControlSource) throws(ControlError) -> ControlResult {
        let command = ControlCommand.save(file: draft.target, force: draft.replacing)
        guard case .result(let result) = try ask(.saved(draft, from: source), for: command, from: source) else {
            try refuse(command, from: source, .refused("the engine answered out of turn"))
        }
        return result
    }

    package func addListener(_ listener: @escaping ControlDispatcher.Listener) -> ControlDispatcher.ListenerID {
        listenersAdded += 1
        let id = ControlDispatcher.ListenerID(number: listenersAdded)
        listeners.append((id, listener))
        return id
    }

    package func removeListener(_ id: ControlDispatcher.ListenerID) { listeners.removeAll { $0.id == id } }

    package func addRefusalListener(_ listener: @escaping ControlDispatcher.RefusalListener) {
        refusalListeners.append(listener)
    }

    package var remotePaths: RemotePaths { RemotePaths(folder: remoteFolder) }

    package func status() -> LiveStatus {
        if case .status(var status)? = try? request(.status) {
            amend(&status)
            lastStatus = status
            return status
        }
        if var status = lastStatus ?? ended?.status {
            amend(&status)
            return status
        }
        return LiveStatus.unavailable
    }

    package var completion: CompletionSource {
        if case .completion(let source)? = try? request(.completion) { return source }
        return CompletionSource()
    }

    /// MIDI controllers are announced by the engine's own announcer, as events.
    package var hasMIDIControl: Bool { false }
    package func pollMIDI() {}

    package func addMeterReader() -> OutputPeakReaders.Reader {
        readersMade += 1
        let reader = OutputPeakReaders.Reader(number: readersMade)
        readers[reader] = .some(nil)
        sharedMeters.addReader(reader)
        return reader
    }

    package func removeMeterReader(_ reader: OutputPeakReaders.Reader) {
        if let engineReader = readers[reader] ?? nil { _ = try? request(.removeMeterReader(engineReader)) }
        readers[reader] = nil
        sharedMeters.removeReader(reader)
    }

    // Read from shared memory when the engine laid its meters there; asked of it otherwise.
    package func meters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])] {
        guard readers[reader] != nil else { return [] }
        return sharedMeters.meters(reader) ?? readings(EngineRequest.meters, reader)
    }

    package func tapMeters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])] {
        guard readers[reader] != nil else { return [] }
        return sharedMeters.tapMeters(reader) ?? readings(EngineRequest.tapMeters, reader)
    }

    private func readings(_ kind: (OutputPeakReaders.Reader) -> EngineRequest,
                          _ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])] {
        guard readers[reader] != nil else { return [] }
        if readers[reader]! == nil, case .reader(let engineReader)? = try? request(.addMeterReader) {
            readers[reader] = engineReader
        }
        guard let engineReader = readers[reader] ?? nil,
              case .meters(let meters)? = try? request(kind(engineReader)) else { return [] }
        return meters.map(\.reading)
    }

    package var activity: (dspLoadPercent: Double, xruns: Int, bounce: LiveStatus.Bounce?) {
        guard case .activity(let activity)? = try? request(.activity) else { return (0, 0, nil) }
        return (activity.dspLoadPercent, activity.xruns, activity.bounce)
    }

    package var taps: [LiveStatus.Tap] {
        readTaps()
        return lastTaps.map(withGaps)
    }

    private func readTaps() {
        tapsRead = LiveHost.now()
        if case .sourceOrigins(let origins)? = try? request(.sourceOrigins) {
            // As the engine has them: one it must note anew (after a bounce) is not known.
            sourceOrigins = origins
        }
        guard case .taps(let taps)? = try? request(.taps) else { return }
        lastTaps = taps
        for tap in taps {
            for gap in tap.gaps ?? [] where !(gaps[tap.file] ?? []).contains(gap) { gaps[tap.file, default: []].append(gap) }
        }
    }

    /// `tap` with every gap its file was given, across restarts.
    private func withGaps(_ tap: LiveStatus.Tap) -> LiveStatus.Tap {
        var tap = tap
        tap.gaps = gaps[tap.file]
        return tap
    }

    /// The takes recording (or paused) when the engine died, to go on with.
    private var continuations: [TakeContinuation] {
        lastTaps.compactMap { tap in
            // One the supervisor holds open goes on in any format; a closed one only as WAV or RF64.
            guard tap.state == .recording || tap.state == .paused, sharedTakes.isHeld(tap.file)
                    || tap.file.lowercased().hasSuffix(".wav") || tap.file.lowercased().hasSuffix(".rf64") else { return nil }
            let requested = tap.requestedFile ?? tap.file
            let held = sharedTakes.isHeld(tap.file)
            if tap.state == .paused {
                return TakeContinuation(requestedFile: requested, file: tap.file, expectedFrameTime: 0, paused: true,
                                        heldBySupervisor: held)
            }
            // Handed to an engine that died before its first frame: handed on as it was, so
            // the one gap spans both outages.
            if tap.startFrame == nil, var earlier = handedTakes[tap.file]?.continuation,
               handedTakes[tap.file]?.seconds == tap.seconds {
                earlier.heldBySupervisor = held
                return earlier
            }
            // No clock (it never recorded, or a bounce broke it): it goes on with no silence added.
            return TakeContinuation(requestedFile: requested, file: tap.file,
                                    expectedFrameTime: tap.startFrame.map { $0 &+ tap.droppedFrames &+ (tap.skippedFrames ?? 0) },
                                    paused: false, heldBySupervisor: held)
        }
    }

    package var runningText: String? { snapshot }

    /// Takes this process failed to write (a full disk), told once each, as an engine tells its own.
    private func announceTakeFailures() {
        sharedTakes.notifier.drain()
        let failures = sharedTakes.takeFailures()
        guard !failures.isEmpty else { return }
        readTaps()
        announce(failures.map { failure in
            let node = lastTaps.first { $0.file == failure.file }?.node ?? ""
            let take = ControlChange.Take(node: node, file: failure.file, seconds: failure.seconds, droppedFrames: failure.droppedFrames)
            return ControlChange(.tapFailed(take, reason: failure.reason), from: .host)
        })
    }

    /// The dead engine's takes get what it rendered and had not written,
    /// and stay open for the next engine; its sources' origins are read.
    private func finishTakes() {
        sharedTakes.engineEnded(&lastTaps)
        // Where its sources stood as it died, which its last report may not have said (an xrun since).
        for (node, origin) in sharedTakes.takeSourceOrigins() { sourceOrigins[node] = origin }
    }

    // MARK: The engine process

    /// Starts an engine (from `snapshotText` when restarting, with the
    /// nodes left out bypassed) and waits until it plays.
    private func startEngine(restartingFrom snapshotText: String?) throws {
        var flags = ["--engine-child"]
        var snapshotFile: String?
        defer { if let snapshotFile { unlink(snapshotFile) } }
        if let snapshotText {
            let file = try Self.writePrivately(snapshotText)
            snapshotFile = file
            flags += ["--engine-restart", file]
        }
        for node in leftOut { flags += ["--engine-bypass", node] }
        for node in standIns { flags += ["--engine-stand-in", node] }
        if let scene { flags += ["--engine-scene", scene] }
        if let setlistPatch { flags += ["--engine-setlist-patch", setlistPatch] }
        var connectionsFile: String?
        defer { if let connectionsFile { unlink(connectionsFile) } }
        if let connections, let data = try? JSONEncoder().encode(connections) {
            let file = try Self.writePrivately(String(decoding: data, as: UTF8.self), suffix: ".json")
            connectionsFile = file
            flags += ["--engine-connections", file]
        }
        if let stateFolder { flags += ["--engine-state", stateFolder.path] }
        let handing = snapshotText == nil ? [] : continuations
        handedTakes = [:]
        for continuation in handing {
            let seconds = lastTaps.first { $0.file == continuation.file }?.seconds ?? 0
            handedTakes[continuation.file] = (continuation, seconds)
        }
        sharedTakes.handing(Set(handing.map(\.file)))
        if !handing.isEmpty, let data = try? JSONEncoder().encode(handing) {
            flags += ["--engine-continue", String(decoding: data, as: UTF8.self)]
        }
        let origins = sourceOrigins.compactMapValues { $0 }
        if snapshotText != nil, !origins.isEmpty, let data = try? JSONEncoder().encode(origins) {
            flags += ["--engine-resume", String(decoding: data, as: UTF8.self)]
        }
        let process = try EngineProcess(executable: launch.executable, arguments: ChildProcess.command(launch.arguments, adding: flags),
                                        tapRegion: sharedTakes.descriptor, meterRegion: sharedMeters.descriptor)
        self.process = process
        startingEngine = true
        defer { startingEngine = false }
        let deadline = LiveHost.now() + Self.startSeconds
        while true {
            let messages: [EngineMessage]
            do {
                messages = try process.link.receive()
            } catch {
                self.process = nil
                throw startFailure(of: process)
            }
            var ready = false
            for message in messages {
                if case .event(.ready(let readiness)) = message {
                    remoteFolder = readiness.remoteFolder
                    restoredState = readiness.restoredState
                    ready = true
                } else {
                    handle([message])
                }
            }
            if ready { break }
            guard LiveHost.now() < deadline else {
                process.kill(beating: beat)
                self.process = nil
                throw SupervisorError.didNotStart(seconds: Self.startSeconds)
            }
            beat()
            process.link.waitReadable(seconds: 0.1)
        }
        engineStartedAt = LiveHost.now()
        sharedTakes.closeUnadopted()  // its taps are open: a take it did not go on with ends here
        for key in readers.keys { readers[key] = .some(nil) }  // the new engine's readers are made when first read
        takeSnapshot()
        readTaps()
        // It died even as it began (its crash is recorded): it did not start.
        guard self.process != nil else {
            throw SupervisorError.crashedStarting(crashes.last?.sentence ?? "the engine ended")
        }
    }

    /// Why an engine that ended before playing could not start.
    private func startFailure(of process: EngineProcess) -> SupervisorError {
        let ending = process.wait(seconds: 10, beating: beat) ?? {
            process.kill(beating: beat)
            return process.wait(seconds: 0)
        }()
        if process.hasEnded { finishTakes() }
        if let report = EngineCrashReport(process.crashReport()) {
            startReport = report
            return .crashedStarting(Self.culprit(report, ending: ending))
        }
        switch ending {
        case .exited(let status)?: return .engineExited(status: status)  // it said why on stderr
        case let other?: return .crashedStarting("the engine ended with \(other.description) before it played")
        case nil: return .crashedStarting("the engine ended before it played")
        }
    }

    /// The engine died while playing: name the culprit, leave it out,
    /// start again from the latest snapshot, and tell every front end.
    private func engineLost() {
        guard let process else { return }
        self.process = nil
        let lostAt = LiveHost.now()
        playedBefore += lostAt - engineStartedAt
        // What it said before it died (its connections, the last changes) counts.
        if let messages = try? process.link.receive() { handle(messages) }
        // A crash during a bounce stopped the engine: end the freewheel while its client still exists.
        let bounced = keeper != nil
        if let keeper { _ = keeper.leaveFreewheelAndClose(beating: beat) }
        keeper = nil
        // One that said its run ended is finalising its takes: it is given time to.
        var ending = process.wait(seconds: ended != nil && !process.hasCrashReport ? Self.answerSeconds : 2, beating: beat)
        if ending == nil {
            process.kill(beating: beat)
            ending = process.wait(seconds: 0)
        }
        if process.hasEnded { finishTakes() }
        let report = EngineCrashReport(process.crashReport())
        if ended != nil, report == nil { return }  // it ended by itself (the server shut down), as it said
        // While the run ends, or while an engine is being started, a crash is recorded and not restarted.
        let restarting = !finishing && !startingEngine
        let signal = report?.signal ?? ending.map(\.description) ?? "an unknown end"
        var crash = LiveStatus.Crash(node: report?.node, plugin: report?.plugin, call: report?.call, signal: signal,
                                     atSeconds: lostAt - startedAt, restartSeconds: nil, leftOut: false, sentence: "")
        if let node = report?.node, report?.call != nil {
            if !leftOut.contains(node) { leftOut.append(node) }
            // One that crashed as it was made (a new format makes plugins again) is not made in the next engine.
            if report?.call?.hasPrefix("instantiate") == true, !standIns.contains(node) { standIns.append(node) }
            crash.leftOut = true
        } else {
            unnamedCrashes = unnamedCrashes.filter { lostAt - startedAt - $0 < Self.crashWindowSeconds } + [lostAt - startedAt]
        }
        let what = report.map { Self.culprit($0, ending: ending) } ?? "the engine ended (\(signal))"
        guard restarting else {
            crash.sentence = what
            crashes.append(crash)
            if finishing { ended = ended ?? (false, lastStatus ?? .unavailable) }
            return
        }
        if unnamedCrashes.count >= Self.unnamedCrashesAllowed {
            fail(crash, sentence: what + "; it ended \(unnamedCrashes.count) times in a minute with no plugin to leave out, so the run ends")
            return
        }
        let madeWithout: [(crash: LiveStatus.Crash, backtrace: String?)]
        do {
            madeWithout = try startEngineLeavingOut(restartingFrom: snapshot)
        } catch {
            fail(crash, sentence: what + "; the engine could not start again (\(error)), so the run ends")
            return
        }
        crash.restartSeconds = LiveHost.now() - lostAt
        crash.restoredState = restoredState
        restoreTime()
        var sentence = what + "; the engine restarted"
        if crash.leftOut, let node = crash.node {
            sentence += " without it in \(Self.secondsText(crash.restartSeconds!)); `restore \(node)` tries it again"
        } else {
            sentence += " in \(Self.secondsText(crash.restartSeconds!))"
        }
        if let backtrace = report?.backtrace { sentence += "; the backtrace is in \(backtrace)" }
        crash.sentence = sentence
        crashes.append(crash)
        if bounced { announce([ControlChange(.bounceFailed(reason: "the bounce ended with the crash; nothing was written"), from: .host)]) }
        announce([ControlChange(.engineCrashed(crash), from: .host)])
        announce(madeWithout.map { recordStandIn($0, verb: "restarted", seconds: LiveHost.now() - lostAt) })
    }

    /// Starts an engine. One that crashes as a plugin is made (in its
    /// instantiate()) is started again with that node left out and never
    /// made (`--engine-stand-in`), each node once; returns those crashes,
    /// for `recordStandIn`. Any other failure to start is thrown.
    private func startEngineLeavingOut(restartingFrom snapshotText: String?) throws
        -> [(crash: LiveStatus.Crash, backtrace: String?)] {
        var met: [(crash: LiveStatus.Crash, backtrace: String?)] = []
        while true {
            startReport = nil
            do {
                try startEngine(restartingFrom: snapshotText)
                return met
            } catch SupervisorError.crashedStarting(let what) {
                // With no culprit named, the engine cannot start: the run ends.
                guard let report = startReport, let node = report.node, let call = report.call else {
                    throw SupervisorError.crashedStarting(what)
                }
                // A plugin's restore() of its own snapshot: once more without the snapshots.
                if call.contains("restore"), snapshotText != nil, dropStateSnapshots(after: what) { continue }
                if call.hasPrefix("instantiate") {
                    // Not made again: its description stands in.
                    guard !standIns.contains(node) else { throw SupervisorError.crashedStarting(what) }
                    standIns.append(node)
                } else if leftOut.contains(node) {
                    throw SupervisorError.crashedStarting(what)  // bypassed, and it still crashed
                }
                if !leftOut.contains(node) { leftOut.append(node) }
                let crash = LiveStatus.Crash(node: node, plugin: report.plugin, call: report.call, signal: report.signal ?? "an unknown signal",
                                             atSeconds: LiveHost.now() - startedAt, restartSeconds: nil, leftOut: true,
                                             sentence: what)
                met.append((crash, report.backtrace))
            }
        }
    }

    /// Records a crash while an engine started (in instantiate(), or as it
    /// first played) that an engine `verb` ("started", "restarted")
    /// without, and returns its announcement.
    private func recordStandIn(_ met: (crash: LiveStatus.Crash, backtrace: String?), verb: String, seconds: Double) -> ControlChange {
        var crash = met.crash
        crash.restartSeconds = seconds
        crash.sentence += "; the engine \(verb) without it in \(Self.secondsText(seconds)); `restore \(crash.node ?? "")` tries it again"
        if let backtrace = met.backtrace { crash.sentence += "; the backtrace is in \(backtrace)" }
        crashes.append(crash)
        return ControlChange(.engineCrashed(crash), from: .host)
    }

    /// `restore` (or `bypass NODE off`) of a node that crashed as it was
    /// made: a new engine, from the running state, tries to make it (the
    /// takes go on in their files, as after a crash). If it crashes again,
    /// it is left out again and that crash is announced.
    private func makeAgain(_ node: String, from source: ControlSource) throws(ControlError) -> ControlResult {
        let command = ControlCommand.restore(node: node)
        guard let process else {
            throw ControlError(command: command, source: source, reason: .refused(SupervisorError.noEngine.description))
        }
        guard keeper == nil else {
            let refusal = ControlError(command: command, source: source, reason: .refused(
                "`\(node)` crashed as it was made, so trying it again takes a new engine, which waits for the bounce to end"))
            for listener in refusalListeners { listener(refusal) }
            throw refusal
        }
        if snapshotStale { takeSnapshot() }
        readTaps()
        let stoppedAt = LiveHost.now()
        // A planned end: the engine finalises its takes, and the next one goes
        // on with them (an engine lost meanwhile is not restarted there).
        finishing = true
        _ = try? request(.finish, seconds: Self.startSeconds)
        finishing = false
        ended = nil
        process.wait(seconds: 10, beating: beat)
        process.kill(beating: beat)
        if process.hasEnded { finishTakes() }  // one killed mid-finish: its takes' ends are written here
        self.process = nil
        playedBefore += stoppedAt - engineStartedAt
        standIns.removeAll { $0 == node }
        let madeWithout: [(crash: LiveStatus.Crash, backtrace: String?)]
        do {
            madeWithout = try startEngineLeavingOut(restartingFrom: snapshot)
        } catch {
            let crash = LiveStatus.Crash(node: node, plugin: nil, call: nil, signal: "", atSeconds: stoppedAt - startedAt,
                                         restartSeconds: nil, leftOut: false, sentence: "")
            fail(crash, sentence: "`restore \(node)` needed a new engine, which could not start (\(error)), so the run ends")
            throw ControlError(command: command, source: source, reason: .refused(failure ?? "the engine could not start"))
        }
        restoreTime()
        let crashed = madeWithout.map { recordStandIn($0, verb: "restarted", seconds: LiveHost.now() - stoppedAt) }
        announce(crashed)
        if standIns.contains(node) { return .changed(crashed) }
        let result = try forward(.bypass(node: node, on: false), from: source)
        restored(node, from: source)
        if case .changed(let changes) = result {
            return .changed(crashed + changes + [ControlChange(.restored(node: node), from: source)])
        }
        return result
    }

    /// A restart that crashed may have crashed in a plugin's restore() of
    /// its own state snapshot: once more with none (a new, empty folder),
    /// said in a warning.
    private func dropStateSnapshots(after what: String) -> Bool {
        guard let folder = stateFolder,
              (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == false else { return false }
        stateFolder = nil
        stateFolder = try? EngineStateFolder()
        notes.append(("the engine did not start again with the plugins' state snapshots (\(what)); it starts without them", true))
        return true
    }

    private func fail(_ crash: LiveStatus.Crash, sentence: String) {
        var crash = crash
        crash.sentence = sentence
        crashes.append(crash)
        failure = sentence
        announce([ControlChange(.engineCrashed(crash), from: .host)])
    }

    /// "node `bad` (Crashy Effect) crashed in run() (SIGSEGV)", or "… hung in run() (no cycle completed for 2 s)".
    private static func culprit(_ report: EngineCrashReport, ending: ChildProcess.Ending?) -> String {
        let hung = report.signal == "hang"
        let signal = hung ? "no cycle completed for 2 s" : report.signal ?? ending?.description ?? "an unknown signal"
        let verb = hung ? "hung" : "crashed"
        guard let call = report.call else { return "the engine \(verb) (\(signal))" }
        guard let node = report.node else { return "a plugin \(verb) in \(call) (\(signal))" }
        return "node `\(node)`" + (report.plugin.map { " (\($0))" } ?? "") + " \(verb) in \(call) (\(signal))"
    }

    /// The tempo and transport the session had, which its patch text does not keep.
    private func restoreTime() {
        if let tempo { _ = try? request(.command(.tempo(tempo), from: .host)) }
        if let rolling { _ = try? request(.command(.transport(rolling: rolling), from: .host)) }
    }

    private func restored(_ node: String, from source: ControlSource) {
        leftOut.removeAll { $0 == node }
        announce([ControlChange(.restored(node: node), from: source)])
    }

    private func takeSnapshot() {
        snapshotTaken = LiveHost.now()
        snapshotStale = false
        if case .snapshot(let text, let name)? = try? request(.snapshot), let text {
            snapshot = text
            setlistPatch = name
        }
    }

    /// Sends `request` and waits for its answer, handling the events that
    /// come first. An engine that dies meanwhile is restarted, and the
    /// request fails; one that does not answer in time is taken for hung.
    private func request(_ request: EngineRequest, seconds: Double = answerSeconds) throws(SupervisorError) -> EngineReply {
        guard let process else { throw .noEngine }
        nextRequest += 1
        let id = nextRequest
        do {
            try process.link.send(.request(id: id, request))
        } catch {
            engineLost()
            throw .engineLost
        }
        let deadline = LiveHost.now() + seconds
        while true {
            do {
                handle(try process.link.receive())
            } catch {
                engineLost()
                throw .engineLost
            }
            if let reply = replies.removeValue(forKey: id) { return reply }
            // An engine whose run ended by itself answers nothing more.
            if ended != nil { throw .noEngine }
            if process.hasCrashReport || process.hasEnded {
                engineLost()  // in order: a bounce's freewheel ended first, then the engine killed
                throw .engineLost
            }
            guard LiveHost.now() < deadline else {
                engineLost()  // taken for hung
                throw .engineLost
            }
            beat()
            process.waitReadable(seconds: min(0.1, max(deadline - LiveHost.now(), 0)))
        }
    }

    private func handle(_ messages: [EngineMessage]) {
        for message in messages {
            switch message {
            case .reply(let id, let reply):
                replies[id] = reply
            case .event(.changes(let changes)):
                for change in changes { follow(change) }
                announce(changes)
            case .event(.refusal(let refusal)):
                let error = refusal.error
                for listener in refusalListeners { listener(error) }
            case .event(.note(let text, let isWarning)):
                notes.append((text, isWarning))
            case .event(.connections(let connections)):
                self.connections = connections
            case .event(.ended(let serverShutDown, let status)):
                ended = (serverShutDown, status)
            case .event(.ready), .request:
                break
            }
        }
    }

    /// What a change means for a restart.
    private func follow(_ change: ControlChange) {
        snapshotStale = true
        switch change.kind {
        case .tempo(let beatsPerMinute): tempo = beatsPerMinute
        case .transport(let value): rolling = value
        case .sceneApplied(let name): scene = name
        case .patchSwitched:
            // The name is taken with the next snapshot, never before its text.
            scene = nil  // the new patch's scenes are its own
        // A stand-in stays out (its plugin was never made) until `restore` makes it again.
        case .bypass(let node, false) where leftOut.contains(node) && !standIns.contains(node): leftOut.removeAll { $0 == node }
        case .bounceStarted: keeper = try? FreewheelKeeper(server: launch.server)
        case .bounceFinished, .bounceFailed:
            keeper = nil
            tapsWatchedUntil = LiveHost.now() + 2  // the takes' and sources' clocks settle anew
        default: break
        }
    }

    private func announce(_ changes: [ControlChange]) {
        for change in changes {
            for (_, listener) in listeners { listener(change) }
        }
    }

    private func amend(_ status: inout LiveStatus) {
        sharedMeters.amend(&status)
        amendStatus?(&status)
        status.seconds += playedBefore
        status.taps = status.taps.map(withGaps)
        status.crashes = crashes.isEmpty ? nil : crashes
        status.leftOut = leftOut.isEmpty ? nil : leftOut
    }

    /// "0.31 s".
    private static func secondsText(_ seconds: Double) -> String { String(format: "%.2f s", seconds) }

    /// `text` in a new file only this user can read, in $TMPDIR.
    private static func writePrivately(_ text: String, suffix: String = ".yaml") throws(SupervisorError) -> String {
        let folder = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((folder + "/fxhost-restart-XXXXXX" + suffix).utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { mkstemps($0.baseAddress!, Int32(suffix.utf8.count)) }
        guard descriptor >= 0 else { throw .snapshotNotWritten(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let bytes = Array(text.utf8)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        guard written == bytes.count else {
            unlink(path)
            throw .snapshotNotWritten(String(cString: strerror(errno)))
        }
        return path
    }
}
