import ArgumentParser
import CCoreShim
import Foundation
import HostCore
import JackIO
import LiveControl

extension RunCommand {
    /// `run --engine-child` (hidden): the engine process a supervised run
    /// starts. It plays the session (the JACK client, the plugins, the
    /// realtime thread) and is steered by its supervisor alone, over the
    /// link on descriptor 3; a crash is reported on descriptor 4. After a
    /// crash, the supervisor starts another from `--engine-restart` (the
    /// running state as `save` writes it) with `--engine-bypass` nodes left out.
    func runEngine() throws {
        let parentAtStart = getppid()
        // First, before anything opens a descriptor: the takes' shared memory, if the supervisor passed it.
        let tapRegion = SharedTapRegion.inherited(descriptor: EngineProcess.tapRegionDescriptor)
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
        // The patch's own path, even for a snapshot: `save` writes there, and relative paths resolve from its folder.
        let path = source.patch ?? FileManager.default.currentDirectoryPath + "/--chain"
        let text = try (engineRestart ?? source.patch).map { try PatchFileReader.read(path: $0) }
        var patch = try text.map { try PatchParser.parse(text: $0, path: path) }
            ?? source.load(inputChannels: 2, plugins: plugins)
        // A take the crashed engine was recording goes on in its own file, on the same port.
        let continued: [TakeContinuation]
        do {
            continued = try engineContinue.map { try JSONDecoder().decode([TakeContinuation].self, from: Data($0.utf8)) } ?? []
        } catch {
            throw CommandLineError("--engine-continue takes the takes a supervisor hands its engine, as JSON, and this is not that")
        }
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        var unused = continued
        for index in patch.taps.indices {
            let requested = PatchLoader.resolve(patch.taps[index].file, in: folder)
            if let match = unused.firstIndex(where: { $0.requestedFile == requested }) {
                patch.taps[index].file = unused.remove(at: match).file  // each take goes on in one tap only
            }
        }
        for index in patch.nodes.indices {
            guard engineBypass.contains(patch.nodes[index].name), case .plugin(var spec) = patch.nodes[index].kind else { continue }
            spec.bypass = true
            patch.nodes[index].kind = .plugin(spec)
        }
        let graph = try PatchLoader(units: plugins.provider).graph(for: patch)
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
        sessionOptions.notifier = notifier
        sessionOptions.continuedTakes = continued
        sessionOptions.tapRegion = tapRegion
        var hostOptions = LiveHost.Options()
        hostOptions.reconnect = reconnect
        hostOptions.connectPorts = !noConnect
        let provider = plugins.provider
        let patchFile = LivePatchFile(path: source.patch, patch: patch, text: source.patch == nil ? nil : text) {
            reference throws(UnitError) in try provider.makeUnit(reference)
        }
        let engine = InProcessEngine(session: try LiveSession(graph: graph, options: sessionOptions), patchFile: patchFile)
        engine.dispatcher.remoteFolder = files
        let host = LiveHost(engine: engine, notifier: notifier, signals: nil, options: hostOptions)
        let link = EngineLinkFrontEnd(descriptor: EngineProcess.linkDescriptor)
        host.attach(MIDIAnnouncer())
        host.attach(link)  // last: `ready` once all else is up
        let (reason, closing) = try host.run()
        link.report(closing: closing, serverShutDown: reason == .serverShutDown)
    }
}
