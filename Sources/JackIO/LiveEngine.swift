import CCoreShim
import CJack
import HostCore
import Glibc
import Synchronization

/// Runs `LiveProgram`s in a JACK client's process callback. Control methods
/// (`publish`, `send`, `collectRetired`, `start`, `stop`) are for control
/// threads; the callback itself is allocation- and lock-free and swaps
/// programs only at block boundaries. The engine takes over the client's
/// callbacks and closes the client when it goes away.
package final class LiveEngine {
    package let client: JackClient
    package let inputPorts: [JackPort]
    package let outputPorts: [JackPort]
    /// The MIDI input controllers arrive on, when asked for.
    package let midiPort: JackPort?
    /// The MIDI output mapped values are sent back on (`MIDIFeedback`), when asked for.
    package let feedbackPort: JackPort?
    /// The MIDI clock input and output (`clock:`), when asked for.
    package let clockInPort: JackPort?
    package let clockOutPort: JackPort?
    /// MIDI inputs and outputs of the graph (`midi-input`, `midi-output`
    /// nodes), in the order of a program's `midiInputs` and `midiOutputs`.
    package let midiInputPorts: [JackPort]
    package let midiOutputPorts: [JackPort]
    /// What the callbacks share with this object (internal, not private, so
    /// tests can deliver a callback JACK's dummy driver never makes).
    let state: UnsafeMutablePointer<LiveEngineState>
    /// The command queue takes one producer at a time.
    private let producerLock = Mutex<Void>(())
    /// Programs published and not replaced before the realtime thread took
    /// them: once `programSwaps` reaches it, the last one is running.
    private let publishedPrograms = Atomic<Int>(0)
    /// Realtime threads that help the callback render independent branches.
    private var workerPool: RenderWorkerPool?
    private var workerThreads: [pthread_t] = []
    /// Names a plugin that hangs the callback, while the client is active
    /// and the crash report installed.
    private var hangWatch: LiveHangWatch?

    /// Registers one audio port per name and installs the callbacks.
    /// `threads`: threads that render each block, the callback's included
    /// (more than 1 starts workers at the server's realtime priority).
    /// `midiInput`: also a MIDI input port of that name, read every cycle
    /// against the program's MIDI table. `feedbackOutput`: a MIDI output of
    /// that name the mapped values are sent back on (`MIDIFeedback`).
    /// `clockInput`, `clockOutput`: MIDI ports of those names a clock is
    /// followed from (`readMIDIClock`) and sent on (`sendMIDIClock`).
    package init(client: JackClient, inputs: [String], outputs: [String], commandCapacity: Int = 1024,
                 threads: Int = 1, midiInput: String? = nil, midiInputs: [String] = [],
                 midiOutputs: [String] = [], feedbackOutput: String? = nil,
                 clockInput: String? = nil, clockOutput: String? = nil) throws(JackError) {
        self.client = client
        var inputPorts: [JackPort] = []
        for name in inputs { inputPorts.append(try client.registerAudioPort(name, isInput: true)) }
        var outputPorts: [JackPort] = []
        for name in outputs { outputPorts.append(try client.registerAudioPort(name, isInput: false)) }
        self.inputPorts = inputPorts
        self.outputPorts = outputPorts
        midiPort = try midiInput.map { name throws(JackError) in try client.registerMIDIPort(name) }
        feedbackPort = try feedbackOutput.map { name throws(JackError) in try client.registerMIDIPort(name, isInput: false) }
        clockInPort = try clockInput.map { name throws(JackError) in try client.registerMIDIPort(name, isInput: true) }
        clockOutPort = try clockOutput.map { name throws(JackError) in try client.registerMIDIPort(name, isInput: false) }
        var midiInputPorts: [JackPort] = [], midiOutputPorts: [JackPort] = []
        for name in midiInputs { midiInputPorts.append(try client.registerMIDIPort(name, isInput: true)) }
        for name in midiOutputs { midiOutputPorts.append(try client.registerMIDIPort(name, isInput: false)) }
        self.midiInputPorts = midiInputPorts
        self.midiOutputPorts = midiOutputPorts

        let inputHandles = UnsafeMutableBufferPointer<OpaquePointer>.allocate(capacity: inputPorts.count)
        _ = inputHandles.initialize(from: inputPorts.map(\.handle))
        let outputHandles = UnsafeMutableBufferPointer<OpaquePointer>.allocate(capacity: outputPorts.count)
        _ = outputHandles.initialize(from: outputPorts.map(\.handle))
        state = .allocate(capacity: 1)
        state.initialize(to: LiveEngineState(inputPorts: inputHandles, outputPorts: outputHandles,
                                             commandCapacity: commandCapacity, bufferSize: client.bufferSize,
                                             sampleRate: client.sampleRate))
        state.pointee.midiPort = midiPort?.handle
        state.pointee.midiFeedback.port = feedbackPort?.handle
        state.pointee.clockInput.port = clockInPort?.handle
        state.pointee.clockOutput.port = clockOutPort?.handle
        state.pointee.midiInputPorts = .allocate(capacity: midiInputPorts.count)
        _ = state.pointee.midiInputPorts.initialize(from: midiInputPorts.map(\.handle))
        state.pointee.midiOutputPorts = .allocate(capacity: midiOutputPorts.count)
        _ = state.pointee.midiOutputPorts.initialize(from: midiOutputPorts.map(\.handle))
        do {
            try installCallbacks()
            if threads > 1 {
                let (pool, started) = try JackWorkerThread.pool(threads: threads, client: client)
                workerPool = pool
                workerThreads = started
                state.pointee.workers = pool.workers
            }
        } catch {
            client.close()
            workerPool?.stop()
            releaseState()
            throw error
        }
    }

    deinit {
        hangWatch?.stop()
        if serverHasShutDown { client.abandon() } else { client.close() }
        // No callback runs any more: the workers are idle and may go.
        workerPool?.stop()
        releaseState()
    }

    /// Threads that render each cycle, the callback's included.
    package var threads: Int { (workerPool?.workers.workerCount ?? 0) + 1 }

    /// Blocks rendered with the workers' help so far: tasks the workers ran
    /// (not the callback), for tests and status.
    package var tasksRunByWorkers: Int { workerPool?.workers.tasksRunByWorkers ?? 0 }

    private func installCallbacks() throws(JackError) {
        let handle = try client.handle()
        state.pointee.client = handle
        let context = UnsafeMutableRawPointer(state)
        let process: JackProcessCallback = { frames, context in
            runLiveCycle(context!.assumingMemoryBound(to: LiveEngineState.self), frameCount: Int(frames))
            return 0
        }
        guard jack_set_process_callback(handle, process, context) == 0 else {
            throw .callbackSetupFailed(callback: "process")
        }
        // Where a crash is reported, libjack's threads get an alternate signal
        // stack (freed as each ends), so a plugin that overflows its stack in
        // run() is named too.
        if CrashReport.isInstalled {
            guard jack_set_thread_init_callback(handle, { _ in fxhost_crash_thread_begin_for_life() }, nil) == 0 else {
                throw .callbackSetupFailed(callback: "thread init")
            }
        }
        // These come on a JACK thread that is not the process thread.
        let xrun: JackXRunCallback = { context in
            context!.assumingMemoryBound(to: LiveEngineState.self).pointee.xruns.wrappingAdd(1, ordering: .relaxed)
            return 0
        }
        guard jack_set_xrun_callback(handle, xrun, context) == 0 else { throw .callbackSetupFailed(callback: "xrun") }
        let bufferSize: JackBufferSizeCallback = { frames, context in
            let state = context!.assumingMemoryBound(to: LiveEngineState.self)
            let previous = state.pointee.bufferSize.exchange(Int(frames), ordering: .acquiringAndReleasing)
            if previous != Int(frames) {
                state.pointee.bufferSizeChanged.store(true, ordering: .releasing)
                EventNotifier.signal(state.pointee.noticeDescriptor.load(ordering: .acquiring))
            }
            return 0
        }
        guard jack_set_buffer_size_callback(handle, bufferSize, context) == 0 else {
            throw .callbackSetupFailed(callback: "buffer size")
        }
        // JACK2 calls this once at once with the current rate: only a different one counts.
        let sampleRate: JackSampleRateCallback = { rate, context in
            LiveEngine.noteSampleRate(Int(rate), in: context!.assumingMemoryBound(to: LiveEngineState.self))
            return 0
        }
        guard jack_set_sample_rate_callback(handle, sampleRate, context) == 0 else {
            throw .callbackSetupFailed(callback: "sample rate")
        }
        // JACK asks for port latencies on a thread of its own, before activation counts.
        let latency: JackLatencyCallback = { mode, context in
            reportLiveLatency(context!.assumingMemoryBound(to: LiveEngineState.self), mode: mode)
        }
        guard jack_set_latency_callback(handle, latency, context) == 0 else {
            throw .callbackSetupFailed(callback: "latency")
        }
        // Any connection in the server, made or broken by anyone: a flag for
        // the control thread, which reads this client's own (a supervisor keeps them for a restart).
        let connect: JackPortConnectCallback = { _, _, _, context in
            let state = context!.assumingMemoryBound(to: LiveEngineState.self)
            state.pointee.connectionsChanged.store(true, ordering: .releasing)
            EventNotifier.signal(state.pointee.noticeDescriptor.load(ordering: .acquiring))
        }
        guard jack_set_port_connect_callback(handle, connect, context) == 0 else {
            throw .callbackSetupFailed(callback: "port connect")
        }
        // Only a flag: closing the client here is not allowed.
        let shutdown: JackShutdownCallback = { context in
            let state = context!.assumingMemoryBound(to: LiveEngineState.self)
            state.pointee.serverShutDown.store(true, ordering: .releasing)
            EventNotifier.signal(state.pointee.noticeDescriptor.load(ordering: .acquiring))
        }
        jack_on_shutdown(handle, shutdown, context)
    }

    private func releaseState() {
        for slot in [state.pointee.current, state.pointee.pending.exchange(nil, ordering: .acquiring),
                     state.pointee.retired.exchange(nil, ordering: .acquiring)] {
            if let slot { ProgramSlot.free(slot) }
        }
        state.pointee.inputPorts.deallocate()
        state.pointee.outputPorts.deallocate()
        state.pointee.midiInputPorts.deallocate()
        state.pointee.midiOutputPorts.deallocate()
        state.pointee.programSwapped.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Hands `program` to the realtime thread, which swaps it in at the start
    /// of a block. A program published earlier and not yet taken is freed
    /// unused. The program's buffers must match the engine's ports.
    package func publish(_ program: LiveProgram) throws(LiveEngineError) {
        guard program.inputs.count == inputPorts.count else {
            throw .portCountMismatch(ports: inputPorts.count, buffers: program.inputs.count, inputs: true)
        }
        guard program.outputs.count == outputPorts.count else {
            throw .portCountMismatch(ports: outputPorts.count, buffers: program.outputs.count, inputs: false)
        }
        guard program.program.maxBlockFrames >= 1 else { throw .invalidBlockSize(program.program.maxBlockFrames) }
        collectRetired()
        let slot = ProgramSlot.make(program)
        if let untaken = state.pointee.pending.exchange(slot, ordering: .acquiringAndReleasing) {
            ProgramSlot.free(untaken)
        } else {
            publishedPrograms.wrappingAdd(1, ordering: .relaxed)
        }
    }

    /// Frees the program the realtime thread handed back, if any, and
    /// releases its owner. Returns whether there was one. The realtime thread
    /// swaps again only once this has run, so call it after publishing (or
    /// use `waitUntilPublishedProgramRuns`).
    @discardableResult
    package func collectRetired() -> Bool {
        guard let old = state.pointee.retired.exchange(nil, ordering: .acquiring) else { return false }
        ProgramSlot.free(old)
        return true
    }

    /// Waits (collecting retired programs, woken by the realtime thread after
    /// each swap) until it has swapped in the last published program and
    /// handed back the one before it, which is then freed; false after
    /// `timeout` seconds.
    package func waitUntilPublishedProgramRuns(timeout: Double) -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        // The swap counter moves after the old program is handed back.
        while state.pointee.programSwaps.load(ordering: .acquiring) < publishedPrograms.load(ordering: .relaxed) {
            // Collect first: the realtime thread swaps only once the retired slot is empty.
            collectRetired()
            let remaining = deadline - ContinuousClock.now
            if remaining <= .zero { return false }
            _ = state.pointee.programSwapped.wait(seconds: Double(remaining.components.seconds)
                                                  + Double(remaining.components.attoseconds) * 1e-18)
        }
        collectRetired()
        return true
    }

    /// Queues a store for the realtime thread to make at the next block start.
    package func send(_ command: LiveCommand) throws(LiveEngineError) {
        let queued = producerLock.withLock { _ in state.pointee.commands.push(command) }
        guard queued else { throw .commandQueueFull(capacity: state.pointee.commands.capacity) }
    }

    /// Warms up what the callback uses, then activates the client and has
    /// JACK work out the ports' latencies.
    package func start() throws(JackError) {
        touchRealtimeTypes()
        try client.activate()
        let handle = try client.handle()
        jack_recompute_total_latencies(handle)
        // Only where the crash report handles the watch's signal.
        if CrashReport.isInstalled {
            hangWatch?.stop()
            do {
                hangWatch = try LiveHangWatch(handle: handle, state: state, workers: workerThreads)
            } catch {
                client.deactivate()
                throw .threadFailed(name: error.name, code: error.code)
            }
        }
    }

    /// The latency of the program now running (frames from an input, or a
    /// file source, to the outputs) and whether it plays files: what JACK's
    /// latency callback reports. A change makes JACK recompute the latencies
    /// of the whole graph. Control threads only.
    package func reportLatency(frames: Int, playsFiles: Bool) {
        let oldFrames = state.pointee.latencyFrames.exchange(frames, ordering: .acquiringAndReleasing)
        let oldFiles = state.pointee.playsFiles.exchange(playsFiles, ordering: .acquiringAndReleasing)
        guard oldFrames != frames || oldFiles != playsFiles, let handle = try? client.handle() else { return }
        jack_recompute_total_latencies(handle)
    }

    /// Deactivates the client: when this returns no callback runs. The
    /// current program stays for a later `start`.
    package func stop() {
        // First: a deactivated engine's counter stands still.
        hangWatch?.stop()
        hangWatch = nil
        client.deactivate()
        collectRetired()
    }

    package var statistics: LiveStatistics {
        LiveStatistics(cycles: state.pointee.cycles.load(ordering: .relaxed),
                       frames: state.pointee.frames.load(ordering: .relaxed),
                       xruns: state.pointee.xruns.load(ordering: .relaxed),
                       programSwaps: state.pointee.programSwaps.load(ordering: .relaxed),
                       commandsApplied: state.pointee.commandsApplied.load(ordering: .relaxed),
                       callbackNanoseconds: state.pointee.callbackNanoseconds.load(ordering: .relaxed),
                       renderNanoseconds: state.pointee.renderNanoseconds.load(ordering: .relaxed))
    }

    /// The new buffer size if JACK changed it since the last call, else nil.
    package func takeBufferSizeChange() -> Int? {
        guard state.pointee.bufferSizeChanged.exchange(false, ordering: .acquiringAndReleasing) else { return nil }
        return state.pointee.bufferSize.load(ordering: .acquiring)
    }

    /// True if a connection in the server changed since the last call.
    package func takeConnectionChange() -> Bool {
        state.pointee.connectionsChanged.exchange(false, ordering: .acquiringAndReleasing)
    }

    /// What the sample-rate callback does: records the rate and flags a change.
    static func noteSampleRate(_ rate: Int, in state: UnsafeMutablePointer<LiveEngineState>) {
        let previous = state.pointee.sampleRate.exchange(rate, ordering: .acquiringAndReleasing)
        if previous != rate {
            state.pointee.sampleRateChanged.store(true, ordering: .releasing)
            EventNotifier.signal(state.pointee.noticeDescriptor.load(ordering: .acquiring))
        }
    }

    /// Where the non-realtime callbacks signal that they set a flag (a pipe's write end; -1: nowhere).
    package func notify(descriptor: Int32) {
        state.pointee.noticeDescriptor.store(descriptor, ordering: .releasing)
    }

    /// The new sample rate if JACK changed it since the last call, else nil.
    package func takeSampleRateChange() -> Int? {
        guard state.pointee.sampleRateChanged.exchange(false, ordering: .acquiringAndReleasing) else { return nil }
        return state.pointee.sampleRate.load(ordering: .acquiring)
    }

    /// True once JACK has told the client the server went away.
    package var serverHasShutDown: Bool { state.pointee.serverShutDown.load(ordering: .acquiring) }

    /// Generic metadata is instantiated lazily, under a lock, on first use:
    /// make every atomic operation and queue call the callback makes once
    /// here, before activation, with no effect on the state.
    private func touchRealtimeTypes() {
        let state = self.state
        _ = state.pointee.pending.load(ordering: .acquiring)
        _ = state.pointee.retired.load(ordering: .acquiring)
        _ = state.pointee.retired.compareExchange(expected: nil, desired: nil, ordering: .acquiringAndReleasing)
        state.pointee.cycles.wrappingAdd(0, ordering: .relaxed)
        state.pointee.commandsApplied.wrappingAdd(0, ordering: .relaxed)
        // The realtime thread is not consuming yet, so this thread may.
        let applied = state.pointee.commands.applyPending(state.pointee.motions)
        state.pointee.commandsApplied.wrappingAdd(applied, ordering: .relaxed)
        _ = MonotonicClock.nanoseconds()
        state.pointee.midiActivity.push(MIDIActivity(kind: .scene, generation: 0, index: -1, value: 0, controller: 0, channel: 0))
        _ = state.pointee.midiActivity.drain()
        _ = state.pointee.midiLearning.load(ordering: .relaxed)
        _ = state.pointee.midiReportsPrograms.load(ordering: .relaxed)
        _ = state.pointee.sampleRate.load(ordering: .relaxed)
        state.pointee.midiRamps.slots.advance()
        state.pointee.midiRamps.slots.finishAll()
    }

    // MARK: MIDI control

    /// While true, the realtime thread reports every controller it sees (for `learn`).
    package func setMIDILearning(_ on: Bool) {
        state.pointee.midiLearning.store(on, ordering: .relaxed)
    }

    /// While true, the realtime thread reports every program change no scene takes (a setlist's).
    package func setMIDIReportsPrograms(_ on: Bool) {
        state.pointee.midiReportsPrograms.store(on, ordering: .relaxed)
    }

    /// Has the realtime thread send every mapped value on the feedback
    /// output at its next cycle, changed or not (`feedback`).
    package func resendMIDIFeedback() {
        state.pointee.midiFeedback.resendRequested.store(true, ordering: .relaxed)
    }

    /// What the realtime thread applied from MIDI since the last call, oldest first.
    package func takeMIDIActivity() -> [MIDIActivity] {
        state.pointee.midiActivity.drain()
    }

    /// Reports the activity ring had no room for (their values were applied).
    package var droppedMIDIActivity: Int { state.pointee.midiActivity.dropped.load(ordering: .relaxed) }

    /// Queues `commands` so the realtime thread applies them all in the same
    /// cycle (one publish: `applyPending` takes all of them or none).
    package func send(batch commands: [LiveCommand]) throws(LiveEngineError) {
        let queued = producerLock.withLock { _ in state.pointee.commands.push(contentsOf: commands) }
        guard queued else { throw .commandQueueFull(capacity: state.pointee.commands.capacity) }
    }
}
