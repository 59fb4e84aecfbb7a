import ArgumentParser
import CCoreShim
import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge

extension RunCommand {
    /// `run --engine-child` (hidden): the engine process a supervised run
    /// starts. It plays the session (the JACK client, the plugins, the
    /// realtime thread) and is steered by its supervisor alone, over the
    /// link on descriptor 3; a crash is reported on descriptor 4. After a
    /// crash, the supervisor starts another from `--engine-restart` (the
    /// running state as `save` writes it) with `--engine-bypass` nodes left
    /// out, and each plugin's own state from the snapshots in `--engine-state`.
    func runEngine() throws {
        let parentAtStart = getppid()
        // First, before anything opens a descriptor: the takes' shared memory, if the supervisor passed it.
        let tapRegion = SharedTapRegion.inherited(descriptor: EngineProcess.tapRegionDescriptor)
        // And the meters' cells: the supervisor takes their peaks, this engine only raises them.
        let meterRegion = SharedMeterRegion.inherited(descriptor: EngineProcess.meterRegionDescriptor)
        // The supervisor ends the run: Ctrl-C reaches the terminal's whole
        // process group, and this process waits to be told (or for the link to
        // close). They came blocked, so none ended it before this.
        for number in [SIGINT, SIGTERM, SIGHUP, SIGPIPE] { signal(number, SIG_IGN) }
        var stops = sigset_t()
        sigemptyset(&stops)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&stops, number) }
        pthread_sigmask(SIG_UNBLOCK, &stops, nil)
        // A supervisor killed outright takes its engine along: its takes stay
        // readable as after any kill, and no engine plays on for no one.
        guard fxhost_die_with_parent(parentAtStart) == 0 else { throw ExitCode(1) }
        CrashReport.installForSupervisedEngine(reportingTo: EngineProcess.crashDescriptor)
        JackMessages.silenceUnlessVerbose()
        Terminal.separateResultsFromPluginOutput()

        let plugins = Plugins()
        // A setlist plays its first patch, or after a crash the one the engine had switched to.
        let read = try source.patch.flatMap { try Self.setlist(at: $0) }
        let setlist = read?.setlist
        var setlistIndex = 0
        if let setlist, let name = engineSetlistPatch {
            // Never another patch's file under this name: `save` would write there.
            guard let index = setlist.index(named: name) else {
                throw CommandLineError("--engine-setlist-patch names `\(TerminalText.escaped(name))`, which the setlist no longer has")
            }
            setlistIndex = index
        }
        let patchPath = setlist.map { $0.entries[setlistIndex].path } ?? source.patch
        // The patch's own path, even for a snapshot: `save` writes there, and relative paths resolve from its folder.
        let path = patchPath ?? FileManager.default.currentDirectoryPath + "/--chain"
        let text = try (engineRestart ?? patchPath).map { try PatchFileReader.read(path: $0) }
        var patch = try text.map { try PatchParser.parse(text: $0, path: path) }
            ?? source.load(inputChannels: 2, plugins: plugins)
        // A take the crashed engine was recording goes on in its own file, on the same port.
        let continued: [TakeContinuation]
        do {
            continued = try engineContinue.map { try JSONDecoder().decode([TakeContinuation].self, from: Data($0.utf8)) } ?? []
        } catch {
            throw CommandLineError("--engine-continue takes the takes a supervisor hands its engine, as JSON, and this is not that")
        }
        let resumed: [String: Int]
        do {
            resumed = try engineResume.map { try JSONDecoder().decode([String: Int].self, from: Data($0.utf8)) } ?? [:]
        } catch {
            throw CommandLineError("--engine-resume takes the file sources a supervisor hands its engine, as JSON, and this is not that")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var unused = continued
        for index in patch.taps.indices {
            let requested = PatchLoader.resolve(patch.taps[index].file, in: folder)
            if let match = unused.firstIndex(where: { $0.requestedFile == requested }) {
                patch.taps[index].file = unused.remove(at: match).file  // each take goes on in one tap only
            }
        }
        var leftOut: [String: Bool] = [:]
        for index in patch.nodes.indices {
            guard engineBypass.contains(patch.nodes[index].name), case .plugin(var spec) = patch.nodes[index].kind else { continue }
            leftOut[patch.nodes[index].name] = spec.bypass
            spec.bypass = true
            patch.nodes[index].kind = .plugin(spec)
        }
        let graph = try PatchLoader(units: plugins.provider).graph(for: patch)
        // A plugin that crashed as it was made is not made again: its description stands in.
        for name in engineStandIn {
            guard let node = graph.node(named: name), case .unit(let unit, _) = node.kind else { continue }
            graph.replaceUnit(of: name, with: StandInUnit(standingInFor: unit))
        }
        // Each plugin's own state as last snapshotted, before any instance is
        // made: the patch's values and message parameters then override it,
        // as they do a preset's. The nodes left out start afresh.
        let snapshots = engineState.map { StateSnapshots(folder: $0) }
        var restored: [LiveStatus.Crash.RestoredState] = []
        if let snapshots, engineRestart != nil {
            for node in graph.nodes where !engineBypass.contains(node.name) && !engineStandIn.contains(node.name) {
                guard case .unit(let unit, _) = node.kind, let age = snapshots.restore(node: node.name, into: unit) else { continue }
                restored.append(.init(node: node.name, ageSeconds: age))
            }
        }
        // A snapshot holds the taps as they were; --tap is the first start's.
        for tap in engineRestart == nil ? taps : [] {
            let (reference, file) = try Self.tapArgument(tap)
            guard let node = graph.node(named: reference.node) else {
                throw CommandLineError("`--tap \(tap)` names no node of this patch"
                    + (Suggestion.didYouMean(reference.node, in: graph.nodes.map(\.name)).map { " (\($0))" } ?? ""))
            }
            try graph.installTap(on: node, reference.port, file: file)
        }

        let notifier = EventNotifier()
        var sessionOptions = LiveSession.Options()
        sessionOptions.clientName = clientName
        sessionOptions.server = server ?? ProcessInfo.processInfo.environment["JACK_DEFAULT_SERVER"]
        sessionOptions.threads = threads ?? RenderWorkerPool.availableCores
        sessionOptions.midiControl = patch.midiControl
        sessionOptions.tempo = patch.tempo
        sessionOptions.clock = patch.clock
        sessionOptions.notifier = notifier
        sessionOptions.continuedTakes = continued
        sessionOptions.resumedSources = resumed
        sessionOptions.tapRegion = tapRegion
        sessionOptions.meterRegion = meterRegion
        var hostOptions = LiveHost.Options()
        hostOptions.reconnect = reconnect
        let provider = plugins.provider
        let patchFile = LivePatchFile(path: patchPath, patch: patch, text: patchPath == nil ? nil : text) {
            reference throws(UnitError) in try provider.makeUnit(reference)
        }
        patchFile.leftOut = leftOut
        let engine = InProcessEngine(session: try LiveSession(graph: graph, options: sessionOptions), patchFile: patchFile)
        if let engineScene { engine.session.resumeScene(engineScene) }
        if let engineConnections {
            let data = try PatchFileReader.read(path: engineConnections)
            guard let saved = try? JSONDecoder().decode(JackConnections.self, from: Data(data.utf8)) else {
                throw CommandLineError("--engine-connections takes the connections a supervisor hands its engine, as JSON, and this is not that")
            }
            engine.connectionsToRemake = saved
        }
        // Remade even with --no-connect: they are what the ports had, not the patch's.
        engine.makesPatchConnections = !noConnect
        // Always: the takes a crash broke go on once this step is done, whether it connects anything or not.
        hostOptions.connectPorts = true
        engine.dispatcher.remoteFolder = files
        if let read {
            engine.dispatcher.setlist = LiveSetlist(setlist: read.setlist, first: read.first, index: setlistIndex)
            engine.session.reportMIDIPrograms(true)  // program changes no scene takes switch patches
        }
        let host = LiveHost(engine: engine, notifier: notifier, signals: nil, options: hostOptions)
        let link = EngineLinkFrontEnd(descriptor: EngineProcess.linkDescriptor, session: engine.session)
        link.restoredState = restored.isEmpty ? nil : restored
        host.attach(MIDIAnnouncer())
        if setlist != nil { host.attach(SetlistSpillTimer(dispatcher: engine.dispatcher)) }
        if let snapshots {
            host.attach(StateSnapshotLoop(snapshots: snapshots, session: engine.session, leftOut: Set(engineBypass)) {
                link.note($0, isWarning: true)
            })
        }
        host.attach(link)  // last: `ready` once all else is up
        let (reason, closing) = try host.run()
        link.report(closing: closing, serverShutDown: reason == .serverShutDown)
    }

    /// The setlist at `path`, with every patch it lists read and checked
    /// (so a mistake in a later patch stops the run before it plays), or
    /// nil when the file is a patch.
    static func setlist(at path: String) throws -> (setlist: Setlist, first: Patch)? {
        guard SetlistParser.isSetlist(text: try PatchFileReader.read(path: path)) else { return nil }
        let setlist = try SetlistParser.load(path: path)
        let patches = try setlist.readPatches()
        guard let first = patches.first else { throw CommandLineError("the setlist `\(path)` lists no patch") }
        return (setlist, first)
    }
}
