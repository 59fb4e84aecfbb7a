import Foundation
import HostCore

/// A patch's graph running live on a JACK server: one input port per
/// channel of each live input node, one output port per output channel,
/// file sources streamed from disk, taps recorded, and the whole thing
/// editable while it plays (parameters, bypass, presets, taps, wiring).
///
/// Control methods are for one control thread at a time. The realtime side
/// is `LiveEngine`'s callback; every change reaches it as a command or as a
/// new program swapped in at a block boundary.
public final class LiveSession {
    public struct Options {
        /// The JACK client name to ask for.
        public var clientName = "fxhost"
        /// nil: the default server (or `JACK_DEFAULT_SERVER`, which libjack reads).
        public var server: String?
        /// Seconds to wait for the realtime thread to take a new program.
        public var swapTimeout: Double = 2
        /// Threads that render each cycle, the process callback's included:
        /// independent branches run on the others, realtime threads made by
        /// JACK at the callback's priority. 1 renders in the callback only.
        /// At most the number of cores is used (a realtime thread waiting for
        /// another on its own core would stall the cycle). `fxhost run
        /// --threads` defaults to the number of cores.
        public var threads = 1
        /// The patch's `midi-control:` and `scenes:`. Declared, the session
        /// registers a MIDI input port, `midi_control`, connected to its
        /// `inputs`, and with `outputs` a MIDI output, `midi_feedback`,
        /// connected to them (see LiveSession+MIDI, `MIDIFeedback`).
        package var midiControl = MIDIControl()
        /// The patch's `tempo:` and `meter:`: the host's own transport's, when
        /// no JACK timebase master runs (see `LiveTransport`).
        package var tempo = Tempo()
        /// The patch's `clock:`: with `inputs` a MIDI input, `clock_in`, whose
        /// clock the transport follows; with `outputs` a MIDI output,
        /// `clock_out`, the transport's clock is sent on; each connected to
        /// the ports listed (an empty list: none).
        package var clock = MIDIClockPorts()
        /// Signalled when the session has something to report without being
        /// asked (the server shut down, its buffer size or rate changed, a
        /// bounce ended, a tap's file could not be written), so the thread
        /// that owns the session can sleep until then (`LiveHost`); nil: it
        /// is polled.
        package var notifier: EventNotifier?
        /// Takes to go on with rather than start anew, by the file the
        /// graph's tap declares (a supervised engine restarted after a crash).
        package var continuedTakes: [TakeContinuation] = []
        /// File and MIDI-file sources a restarted engine plays on, by node:
        /// the origin each had in the engine that crashed (`sourceOrigins`).
        package var resumedSources: [String: Int] = [:]
        /// Where the takes' rings and counters go when a supervisor shares
        /// them (a supervised engine), for it to write the takes; the file
        /// and MIDI-file sources' clocks lie there too, for it to read
        /// where they stood if this process dies.
        package var tapRegion: SharedTapRegion?
        /// Where the peak cells go when a supervisor takes the peaks (a
        /// supervised engine): this session then never takes them.
        package var meterRegion: SharedMeterRegion?

        public init() {}
    }

    /// One JACK port of the session and the node channel behind it.
    package struct Port {
        package let node: String
        /// From 1.
        package let channel: Int
        package let port: JackPort
    }

    package private(set) var engine: LiveEngine
    package var client: JackClient { engine.client }
    package private(set) var inputs: [Port]
    package private(set) var outputs: [Port]
    package private(set) var graph: AudioGraph
    package private(set) var plan: RenderPlan
    package private(set) var format: RenderFormat
    package private(set) var isRunning = false

    let options: Options
    private var players: [String: LiveFilePlayer] = [:]
    /// `midi-file` nodes, playing from the session's start (see `LiveSession+MIDIGraph`).
    private var midiFilePlayers: [String: LiveMIDIFilePlayer] = [:]
    /// Frames, xruns and swaps of the engines before a reconnect.
    private var earlierFrames = 0, earlierXruns = 0, earlierSwaps = 0
    private let meterPeaks: LiveMeters

    // The parts the session's other files work through, each keeping its
    // own state behind its methods.

    /// Input control values as last set, by node and symbol.
    var parameterRecord = LiveParameterValues()
    /// MIDI mappings and scenes, learning, and what recent MIDI tables mean.
    var midi: LiveMIDIControl
    /// The host's own transport as last asked.
    var transport: LiveTransportRequest
    /// The taps' recorders, by file, and the taps stopped so far.
    private(set) var liveTaps = LiveTaps()
    /// The bounce under way (see LiveSession+Bounce).
    var bouncing = LiveBounceState()

    /// Opens the client, compiles `graph` at the server's rate and block
    /// size, registers the ports, opens file sources and taps, and publishes
    /// the program. Nothing plays until `start()`.
    public init(graph: AudioGraph, options: Options = Options()) throws(LiveSessionError) {
        self.options = options
        transport = LiveTransportRequest(tempo: options.tempo)
        midi = LiveMIDIControl(control: options.midiControl)
        let client: JackClient
        do {
            client = try JackClient(name: options.clientName, server: options.server)
        } catch {
            throw .jack(error)
        }
        format = RenderFormat(sampleRate: Double(client.sampleRate), maxBlockFrames: client.bufferSize, mode: .live)
        do {
            plan = try graph.compile(format: format)
            // The JACK ports are made once: an output as wide as its input
            // keeps the width it has now through later edits.
            let widths = Dictionary(plan.outputs.map { ($0.node, $0.channels.count) }, uniquingKeysWith: { first, _ in first })
            self.graph = try GraphRewrite(of: graph).apply(outputWidths: widths)
        } catch {
            throw .graph(error)
        }
        (engine, inputs, outputs) = try Self.makeEngine(client: client, plan: plan, threads: options.threads,
                                                         midiInput: options.midiControl.isDeclared,
                                                         feedback: !options.midiControl.outputs.isEmpty,
                                                         clock: options.clock)
        engine.notify(descriptor: options.notifier?.signalDescriptor ?? -1)
        transport.prepare(engine)
        parameterRecord.follow(self.graph)
        let outputChannels = outputs.count
        meterPeaks = options.meterRegion.flatMap { LiveMeters(outputs: outputChannels, in: $0) }
            ?? LiveMeters(channels: outputChannels)
        for source in plan.sources {
            guard case .file(let file) = source.kind else { continue }
            players[source.node] = try LiveFilePlayer(node: source.node, source: file, sampleRate: client.sampleRate,
                                                      resumingFrom: options.resumedSources[source.node],
                                                      clockRegion: options.tapRegion)
        }
        liveTaps.region = options.tapRegion
        // Taps' cells go there only when the outputs' do: the supervisor reads all or none.
        liveTaps.meterRegion = meterPeaks.isShared ? options.meterRegion : nil
        liveTaps.continuing = Dictionary(options.continuedTakes.map { ($0.file, $0) }, uniquingKeysWith: { first, _ in first })
        try openRecorders(for: plan)
        liveTaps.continuing = [:]
        do {
            try engine.publish(makeProgram(for: plan))
            reportLatency(of: plan)
        } catch {
            liveTaps.abortAll()
            throw .engine(error)
        }
    }

    deinit {
        abandonBounce()
        engine.stop()
        for player in players.values { player.stop() }
        liveTaps.abortAll()
    }

    /// Registers the plan's ports on `client` and installs the callbacks.
    private static func makeEngine(client: JackClient, plan: RenderPlan, threads: Int, midiInput: Bool,
                                   feedback: Bool, clock: MIDIClockPorts) throws(LiveSessionError)
        -> (LiveEngine, [Port], [Port]) {
        var inputNames: [(node: String, channel: Int, name: String)] = []
        for source in plan.sources {
            guard case .input = source.kind else { continue }
            inputNames += portNames(node: source.node, channels: source.channels.count)
        }
        let outputNames = plan.outputs.flatMap { portNames(node: $0.node, channels: $0.channels.count) }
        let engine: LiveEngine
        let midiPorts = midiPortNames(of: plan)
        do {
            engine = try LiveEngine(client: client, inputs: inputNames.map(\.name), outputs: outputNames.map(\.name),
                                    threads: min(threads, RenderWorkerPool.availableCores),
                                    midiInput: midiInput ? midiPortName : nil,
                                    midiInputs: midiPorts.inputs, midiOutputs: midiPorts.outputs,
                                    feedbackOutput: feedback ? feedbackPortName : nil,
                                    clockInput: clock.inputs == nil ? nil : clockInPortName,
                                    clockOutput: clock.outputs == nil ? nil : clockOutPortName)
        } catch {
            throw .jack(error)
        }
        return (engine,
                zip(inputNames, engine.inputPorts).map { Port(node: $0.node, channel: $0.channel, port: $1) },
                zip(outputNames, engine.outputPorts).map { Port(node: $0.node, channel: $0.channel, port: $1) })
    }

    /// After the server shut down: joins it again once it is back (throws
    /// `.jack(.noServer)` until then) and resumes the same graph, with the
    /// same units, file positions and taps (which hold a gap for the time
    /// without a server). A server back at another rate or block size gets
    /// a plan rebuilt for it. Ports must be connected again.
    package func reconnect() throws(LiveSessionError) {
        guard serverHasShutDown else { return }
        // Close the dead client before opening another: libjack keeps
        // per-process state that a new server connection replaces, and
        // closing the old client after that crashes inside libjack.
        engine.client.close()
        let client: JackClient
        do {
            client = try JackClient(name: options.clientName, server: options.server)
        } catch {
            throw .jack(error)
        }
        let newFormat = RenderFormat(sampleRate: Double(client.sampleRate), maxBlockFrames: client.bufferSize, mode: .live)
        if newFormat != format {
            do {
                plan = try graph.compile(format: newFormat)
            } catch {
                throw .graph(error)
            }
            format = newFormat
        }
        let previous = engine.statistics
        (engine, inputs, outputs) = try Self.makeEngine(client: client, plan: plan, threads: options.threads,
                                                         midiInput: options.midiControl.isDeclared,
                                                         feedback: !options.midiControl.outputs.isEmpty,
                                                         clock: options.clock)
        engine.notify(descriptor: options.notifier?.signalDescriptor ?? -1)
        transport.prepare(engine)
        earlierFrames += previous.frames
        earlierXruns += previous.xruns
        earlierSwaps += previous.programSwaps
        liveTaps.breakClocks()  // a new server's frame clock starts anew
        transport.frameClockStartsAnew()
        breakFileClocks()
        do {
            try engine.publish(makeProgram(for: plan))
            reportLatency(of: plan)
            try engine.start()
        } catch let error as LiveEngineError {
            throw .engine(error)
        } catch let error as JackError {
            throw .jack(error)
        } catch {
            throw .serverGone
        }
    }

    /// `node` for a mono node, `node_1`, `node_2`… otherwise.
    static func portNames(node: String, channels: Int) -> [(node: String, channel: Int, name: String)] {
        channels == 1 ? [(node, 1, node)] : (1...channels).map { (node, $0, "\(node)_\($0)") }
    }

    // MARK: Running

    /// Fills the file sources' rings, starts the disk and tap writer threads,
    /// then activates the client.
    public func start() throws(LiveSessionError) {
        guard !isRunning else { return }
        for player in players.values {
            player.prime(at: client.frameTime)
            try player.start()
        }
        do {
            try liveTaps.startAll()
        } catch {
            throw .file(error)
        }
        do {
            try engine.start()
        } catch {
            throw .jack(error)
        }
        isRunning = true
    }

    /// Connects every port to what the patch names (exact names or patterns).
    /// Lets the takes a restarted engine continues go on, once its ports
    /// are connected (or were to be left alone).
    package func releaseHeldTakes() { liveTaps.releaseHeld() }

    public func connectPorts() throws(LiveSessionError) {
        do {
            for source in plan.sources {
                guard case .input(let specs) = source.kind else { continue }
                let ports = inputs.filter { $0.node == source.node }
                for (spec, port) in zip(specs, ports) { try client.connect(spec, to: port.port.name) }
            }
            for output in plan.outputs {
                let ports = outputs.filter { $0.node == output.node }
                for (spec, port) in zip(output.ports, ports) { try client.connect(port.port.name, to: spec) }
            }
            if let midiPort = engine.midiPort {
                for spec in midi.control.inputs { try client.connectMIDI(spec, to: midiPort.name) }
            }
            if let feedbackPort = engine.feedbackPort {
                for spec in midi.control.outputs { _ = try client.connectMIDI(from: feedbackPort.name, toMatching: spec) }
            }
            if let clockIn = engine.clockInPort {
                for spec in options.clock.inputs ?? [] { try client.connectMIDI(spec, to: clockIn.name) }
            }
            if let clockOut = engine.clockOutPort {
                for spec in options.clock.outputs ?? [] { _ = try client.connectMIDI(from: clockOut.name, toMatching: spec) }
            }
            try connectMIDIGraphPorts()
        } catch {
            throw .jack(error)
        }
    }

    /// Housekeeping for the control thread, a few times a second: frees
    /// retired programs and rebuilds the plan when JACK changed the block size.
    public func poll() throws(LiveSessionError) {
        engine.collectRetired()
        // Format changes wait for the bounce to end (their flags stay set).
        guard bouncing.running == nil else { return }
        if let rate = engine.takeSampleRateChange(), Double(rate) != format.sampleRate, !serverHasShutDown {
            var newFormat = format
            newFormat.sampleRate = Double(rate)
            try changeFormat(to: newFormat)
            if let player = players.values.first {
                // Files are not resampled: say so (the session goes on).
                throw .sampleRate(SampleRateMismatch(path: player.path, fileRate: player.sampleRate, rate: rate,
                                                     runner: "the JACK server"))
            }
        }
        if let frames = engine.takeBufferSizeChange(), frames != format.maxBlockFrames, !serverHasShutDown {
            var newFormat = format
            newFormat.maxBlockFrames = frames
            try changeFormat(to: newFormat)
        }
    }

    public var serverHasShutDown: Bool { engine.serverHasShutDown }

    /// Stops the client, then the disk threads, and finalises every tap.
    /// Returns the closing status. A tap whose file could not be written
    /// (a full disk), then or earlier, is no error of the session's: it is
    /// `failed` in the status, with why, and every other tap is finished.
    @discardableResult
    public func finish() throws(LiveSessionError) -> LiveStatus {
        abandonBounce()
        let closing = status()
        if !serverHasShutDown { engine.stop() }
        isRunning = false
        for player in players.values { player.stop() }
        liveTaps.finishAll()
        var final = closing
        final.taps = liveTaps.summary
        final.earlierTakes = nil
        return final
    }

    // MARK: Status

    /// A snapshot; output peaks are those since the previous call.
    public func status() -> LiveStatus {
        let statistics = engine.statistics
        let (recent, maximum) = meterPeaks.takeForStatus()
        var outputStatus: [LiveStatus.Output] = []
        var index = 0
        for output in plan.outputs {
            let channels = index..<index + output.channels.count
            outputStatus.append(LiveStatus.Output(node: output.node,
                                                  ports: outputs.filter { $0.node == output.node }.map(\.port.name),
                                                  peakDecibels: channels.map { LiveStatus.decibels(recent[$0]) },
                                                  maximumDecibels: channels.map { LiveStatus.decibels(maximum[$0]) }))
            index = channels.upperBound
        }
        let rate = Double(format.sampleRate)
        var snapshot = LiveStatus(
            client: client.name, server: options.server, sampleRate: Int(format.sampleRate),
            bufferFrames: format.maxBlockFrames, seconds: Double(earlierFrames + statistics.frames - bouncing.silentFrames) / rate,
            dspLoadPercent: serverHasShutDown ? 0 : client.dspLoadPercent, xruns: earlierXruns + statistics.xruns,
            hostMicrosecondsPerCycle: statistics.hostOverheadNanosecondsPerCycle / 1000,
            renderMicrosecondsPerCycle: statistics.cycles == 0 ? 0
                : Double(statistics.renderNanoseconds) / Double(statistics.cycles) / 1000,
            programSwaps: earlierSwaps + statistics.programSwaps, outputs: outputStatus,
            taps: taps,
            files: players.values.sorted(by: { $0.node < $1.node }).map {
                LiveStatus.FileSource(node: $0.node, file: $0.path, seconds: Double($0.playedFrames) / rate,
                                      underrunFrames: $0.underrunFrames, finished: $0.finished)
            },
            serverShutDown: serverHasShutDown)
        snapshot.bounce = bouncing.status
        snapshot.scene = midi.currentScene
        snapshot.earlierTakes = liveTaps.stoppedNotListed > 0 ? liveTaps.stoppedNotListed : nil
        snapshot.threads = engine.threads
        snapshot.workerTasks = engine.tasksRunByWorkers
        snapshot.parameters = parameterRecord.byNode
        snapshot.properties = messageParameterValues()
        snapshot.transport = transportStatus
        return snapshot
    }

    // MARK: Meters

    /// What a meter display shows beside the peaks, without taking the
    /// status's peaks (which `status()` does): DSP load, xruns and the
    /// bounce under way.
    package var activity: (dspLoadPercent: Double, xruns: Int, bounce: LiveStatus.Bounce?) {
        (serverHasShutDown ? 0 : client.dspLoadPercent, earlierXruns + engine.statistics.xruns, bouncing.status)
    }

    /// A reader of output peaks at its own pace (an OSC subscriber's
    /// meters), apart from the status's.
    package func addMeterReader() -> OutputPeakReaders.Reader { meterPeaks.addReader() }

    package func removeMeterReader(_ reader: OutputPeakReaders.Reader) {
        meterPeaks.removeReader(reader)
        liveTaps.removeMeterReader(reader)
    }

    /// Each output node's peak per channel in dBFS (-infinity: silence)
    /// since `reader` last looked.
    package func meters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])] {
        let recent = meterPeaks.take(reader)
        var index = 0
        return plan.outputs.map { output in
            let channels = index..<index + output.channels.count
            index = channels.upperBound
            return (output.node, channels.map { Decibels.peak(fromLinear: Double(recent[$0])) })
        }
    }

    /// Each tapped node's peak per channel in dBFS (-infinity: silence)
    /// since `reader` last looked (taps recording, paused or failed), by node.
    package func tapMeters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])] {
        liveTaps.peaks(reader).map { tapped in
            (tapped.node, tapped.peaks.map { Decibels.peak(fromLinear: Double($0)) })
        }
    }

    /// The latest taps stopped (see `LiveTaps.stoppedListed`), then those recording.
    package var taps: [LiveStatus.Tap] { liveTaps.status }

    /// Where each file and MIDI-file source stands on the server's frame
    /// clock (`LiveSourceClock.origin`; nil before its first cycle): a
    /// restarted engine plays them on from there.
    package var sourceOrigins: [String: Int?] {
        var origins: [String: Int?] = [:]
        for (node, player) in players { origins[node] = .some(player.origin) }
        for (node, player) in midiFilePlayers { origins[node] = .some(player.clock.pointee.knownOrigin) }
        return origins
    }

    /// The sources no longer play in step with the server's clock (a
    /// bounce played instead, a new server): each notes its origin anew.
    func breakFileClocks() {
        for player in players.values { player.breakClock() }
        for player in midiFilePlayers.values { player.clock.pointee.fellBehind() }
    }

    /// The taps whose file could not be written (a full disk) since the
    /// last call, each once, as they are now: `failed`, with why. Their
    /// writers signal the notifier when it happens, so the host asks at once.
    package func takeTapFailures() -> [LiveStatus.Tap] { liveTaps.takeNewFailures() }

    // MARK: Programs

    /// A program for `plan` over this session's players, recorders and meters.
    /// `graph`: the graph `plan` was compiled from, when not yet the running one.
    func makeProgram(for plan: RenderPlan, graph: AudioGraph? = nil) -> LiveProgram {
        // The crash report names a node from the plan that runs; for the
        // block or two until this one runs, the old one's ops share its
        // numbering unless the graph itself changed.
        if CrashReport.isInstalled { CrashReport.register(nodes: plan.nodes) }
        // Only the engine's first program resumes: a node added later starts as new.
        midiFilePlayers = Self.midiFilePlayers(for: plan, from: midiFilePlayers,
                                               resuming: midiFilePlayers.isEmpty ? options.resumedSources : [:],
                                               clockRegion: options.tapRegion)
        var live = LivePlanOwner.makeProgram(for: plan, players: players, recorders: liveTaps.recorders,
                                             tapMeters: liveTaps.meters,
                                             peaks: meterPeaks.peaks, midiPlayers: midiFilePlayers)
        attachMIDI(to: &live, plan: plan, graph: graph ?? self.graph)
        publishMeterLayout(outputsOf: plan)
        return live
    }

    /// Names the cells in the supervisor's region (`SharedMeterRegion`):
    /// each output node's channels in `plan`, and each tap's slot.
    func publishMeterLayout(outputsOf plan: RenderPlan? = nil) {
        guard meterPeaks.isShared, let region = options.meterRegion else { return }
        var entries: [SharedMeterRegion.Entry] = []
        var index = 0
        for output in (plan ?? self.plan).outputs {
            entries.append(.init(kind: .output, node: output.node, first: index, channels: output.channels.count))
            index += output.channels.count
        }
        for tap in liveTaps.sharedMeters { entries.append(.init(kind: .tap, node: tap.node, first: tap.slot, channels: tap.channels)) }
        region.publish(shared: true, entries: entries)
    }

    /// Opens (and, when running, starts) a recorder for every tap of `plan`
    /// that has none yet; returns the files it opened.
    @discardableResult
    private func openRecorders(for plan: RenderPlan) throws(LiveSessionError) -> [String] {
        do {
            return try liveTaps.open(for: plan, sampleRate: Int(format.sampleRate), running: isRunning,
                                     notifier: options.notifier)
        } catch {
            throw .file(error)
        }
    }

    /// Publishes `live` and, while the client runs, waits until the realtime
    /// thread has swapped it in (so whatever the old program used is free).
    /// A plan's program then has its latency reported to JACK.
    func publishAndWait(_ live: LiveProgram) throws(LiveSessionError) {
        do {
            try engine.publish(live)
        } catch {
            throw .engine(error)
        }
        if isRunning {
            guard engine.waitUntilPublishedProgramRuns(timeout: options.swapTimeout) else {
                throw serverHasShutDown ? .serverGone : .programNotTaken(seconds: options.swapTimeout)
            }
        }
        if let plan = live.owner?.plan { reportLatency(of: plan) }
    }

    private func reportLatency(of plan: RenderPlan) {
        let playsFiles = plan.sources.contains { if case .file = $0.kind { true } else { false } }
        engine.reportLatency(frames: plan.latencyFrames, playsFiles: playsFiles)
    }

    /// A reload's new graph (`--watch`): `newGraph` replaces the running one
    /// as `replaceGraph` does, and the nodes in `newUnits` (kept names, new
    /// plugins) have their recorded values read from their new units.
    /// With `midiControl` (a setlist's switch), the new patch's mappings and
    /// scenes ride in the same program: one publish, so no failure between
    /// them leaves the new graph under the old table (or the reverse).
    package func replaceGraph(with newGraph: AudioGraph, newUnits: [String],
                              midiControl: MIDIControl? = nil) throws(LiveSessionError) {
        try replaceGraph(with: newGraph, midiControl: midiControl)
        for node in newUnits {
            if case .unit(let unit, _)? = graph.node(named: node)?.kind { parameterRecord.reread(node, from: unit) }
        }
    }

    /// Replaces the running graph by `newGraph` (same nodes, same units):
    /// compiles it, opens recorders for new taps, swaps it in at a block
    /// boundary, then finalises the taps it no longer has. On failure the
    /// old graph keeps playing, unchanged.
    func replaceGraph(with newGraph: AudioGraph, midiControl: MIDIControl? = nil) throws(LiveSessionError) {
        guard !serverHasShutDown else { throw .serverGone }
        try requireNoBounce()
        let newPlan: RenderPlan
        do {
            newPlan = try newGraph.compile(format: format, continuing: plan)
        } catch {
            throw .graph(error)
        }
        let opened = try openRecorders(for: newPlan)
        let replaced = midiControl.map { midi.replace($0) }
        do {
            try publishAndWait(makeProgram(for: newPlan, graph: newGraph))
        } catch {
            if let replaced { midi.undo(replaced) }
            liveTaps.abort(opened)
            publishMeterLayout()
            throw error
        }
        if replaced?.wasLearning == true { engine.setMIDILearning(false) }
        graph = newGraph
        plan = newPlan
        parameterRecord.follow(newGraph)
        liveTaps.finish(keeping: Set(newPlan.taps.map(\.file)))
        publishMeterLayout()
    }

    /// A new sample rate or block size: plugin instances are made for one
    /// format, so the realtime thread first runs a silent program while the
    /// units make new instances, then takes the rebuilt plan. Plugin state
    /// (reverb tails, delay lines) starts afresh; taps and file sources wait
    /// out the silence. When only the block size changes, a unit that can be
    /// told it (`BlockSizeAdjustable`: an LV2 plugin with the options
    /// interface) keeps its instances and their state; it is told during the
    /// silence, since that must not overlap their run(). The plan's latency
    /// delay lines then carry on too, as after an edit: their history is in
    /// frames, whatever the block size, so a compensated tap or output has
    /// no gap.
    func changeFormat(to newFormat: RenderFormat) throws(LiveSessionError) {
        try publishAndWait(LivePlanOwner.makeIdleProgram(inputs: inputs.count, outputs: outputs.count,
                                                         frames: newFormat.maxBlockFrames))
        let sameRate = newFormat.sampleRate == format.sampleRate && newFormat.mode == format.mode
        if sameRate {
            for node in graph.nodes {
                guard case .unit(let unit, _) = node.kind, let adjustable = unit as? any BlockSizeAdjustable else { continue }
                do {
                    _ = try adjustable.adjustBlockSize(to: newFormat)
                } catch {
                    try publishAndWait(makeProgram(for: plan))
                    throw .graph(GraphError("`\(node.name)` (\(unit.displayName)) could not take the new block size: "
                                            + error.message, at: node.location))
                }
            }
        }
        let newPlan: RenderPlan
        do {
            newPlan = try graph.compile(format: newFormat, continuing: sameRate ? plan : nil)
        } catch {
            // Keep playing the old plan rather than silence: it still owns its
            // instances, and the engine renders it in chunks if blocks grew.
            try publishAndWait(makeProgram(for: plan))
            throw .graph(error)
        }
        format = newFormat
        try publishAndWait(makeProgram(for: newPlan))
        plan = newPlan
    }

    /// Runs `body` while the realtime thread plays a silent program and so
    /// runs no plugin, then puts the current plan back.
    func whileSilent(_ body: () throws(LiveSessionError) -> Void) throws(LiveSessionError) {
        guard !serverHasShutDown else { throw .serverGone }
        try requireNoBounce()
        try publishAndWait(LivePlanOwner.makeIdleProgram(inputs: inputs.count, outputs: outputs.count,
                                                         frames: format.maxBlockFrames))
        do {
            try body()
        } catch {
            try publishAndWait(makeProgram(for: plan))
            throw error
        }
        try publishAndWait(makeProgram(for: plan))
    }

    // MARK: Edits helpers

    /// An edit of the graph as it stands, bypasses a MIDI controller set included.
    func rewrite() -> GraphRewrite {
        absorbMIDIActivity()
        return GraphRewrite(of: graph)
    }

    /// A bypass toggled live goes into the graph, the one place bypass state
    /// is kept, so every plan compiled from now on starts with it (the
    /// running plan's flag is set by a realtime command).
    func recordBypass(_ node: String, _ on: Bool) throws(LiveSessionError) {
        var edit = rewrite()
        edit.bypass[node] = on
        do {
            graph = try edit.apply()
        } catch {
            throw .graph(error)
        }
    }

    func unit(named node: String) throws(LiveSessionError) -> any ProcessingUnit {
        try Self.unit(named: node, in: graph)
    }

    /// `node`'s unit in `graph`; an unknown node or one that is not a plugin is an error.
    static func unit(named node: String, in graph: AudioGraph) throws(LiveSessionError) -> any ProcessingUnit {
        guard let found = graph.node(named: node) else {
            throw .unknownNode(node, suggestion: Suggestion.didYouMean(node, in: graph.nodes.map(\.name)))
        }
        guard case .unit(let unit, _) = found.kind else { throw .notAPlugin(node: node) }
        return unit
    }

    package func requireNode(_ node: String) throws(LiveSessionError) {
        guard graph.node(named: node) == nil else { return }
        throw .unknownNode(node, suggestion: Suggestion.didYouMean(node, in: graph.nodes.map(\.name)))
    }
}
