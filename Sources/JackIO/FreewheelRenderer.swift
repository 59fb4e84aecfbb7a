import CCoreShim
import CJack
import Glibc
import HostCore
import Synchronization

/// Bounces a `RenderJob` through a running JACK server in freewheel
/// mode: the server runs cycles as fast as its clients allow, and this
/// client's process callback renders one block of the job per cycle,
/// waiting for disk where it must (nothing is dropped). It opens a client of
/// its own with no ports, so a live session on the same server can bounce
/// through it too (muting its own outputs meanwhile).
///
/// The server is always switched back to realtime before `render` returns
/// or throws: when the render ends, when a file fails, when the server
/// reports an error, and on SIGINT or SIGTERM, which `render` catches for
/// as long as it runs (the handler only sets a flag; this thread stops).
package final class FreewheelRenderer {
    package let client: JackClient
    private let state: UnsafeMutablePointer<FreewheelState>

    /// Joins the server named `server` (nil: the default one); never starts one.
    package init(server: String?, clientName: String = "fxhost-bounce") throws(FreewheelError) {
        do {
            client = try JackClient(name: clientName, server: server)
        } catch {
            throw .jack(error)
        }
        state = .allocate(capacity: 1)
        state.initialize(to: FreewheelState())
        do {
            try installCallbacks()
        } catch {
            client.close()
            state.deinitialize(count: 1)
            state.deallocate()
            throw .jack(error)
        }
    }

    deinit {
        if state.pointee.serverShutDown.load(ordering: .acquiring) { client.abandon() } else { client.close() }
        state.pointee.wake.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The server's rate and buffer size: compile the plan with these (the
    /// plan's block size must be the buffer size, so that a bounce renders
    /// the same blocks as the embedded driver at that block size).
    package var sampleRate: Int { client.sampleRate }
    package var bufferSize: Int { client.bufferSize }

    /// Asks a `render` under way (on another thread) to stop as a signal
    /// would: freewheel goes off, no output is kept, and it throws
    /// `.cancelled`. A cancel that comes before `render` starts stops it as
    /// soon as it does.
    package func cancel() {
        state.pointee.cancelled.store(true, ordering: .releasing)
        state.pointee.wake.signal()
    }

    /// Renders `job` to the end and finishes its files. The job must
    /// be fresh (not started).
    package func render(_ job: RenderJob) throws(FreewheelError) -> RenderSummary {
        let format = job.plan.format
        guard Int(format.sampleRate) == sampleRate else {
            throw .sampleRateMismatch(planRate: format.sampleRate, serverRate: sampleRate)
        }
        guard format.maxBlockFrames == bufferSize else {
            throw .blockSizeMismatch(planFrames: format.maxBlockFrames, serverFrames: bufferSize)
        }
        let handle: OpaquePointer
        do { handle = try client.handle() } catch { throw .jack(error) }

        let signals = StopSignals()
        defer { signals.restore() }
        defer { state.pointee.cancelled.store(false, ordering: .relaxed) }
        do { try job.start() } catch { throw .render(error) }
        let cycle = BounceCycle(job: job, state: state)
        state.pointee.reset()
        state.pointee.cycle = Unmanaged.passUnretained(cycle).toOpaque()
        defer { state.pointee.cycle = nil }

        var freewheeling = false
        // Idempotent: every way out of here passes through it before the job is finished or aborted.
        func stop() {
            state.pointee.running.store(false, ordering: .releasing)
            if freewheeling { jack_set_freewheel(handle, 0) }
            freewheeling = false
            client.deactivate() // when this returns, no callback is running
        }
        defer { stop() }

        do { try client.activate() } catch {
            job.abort()
            throw .jack(error)
        }
        let code = jack_set_freewheel(handle, 1)
        guard code == 0 else {
            stop()
            job.abort()
            throw .freewheelRefused(server: client.serverName, code: code)
        }
        freewheeling = true
        state.pointee.running.store(true, ordering: .releasing)

        var caught: Int32?, cancelled = false
        while !state.pointee.finished.load(ordering: .acquiring) {
            if let signal = signals.caught {
                caught = signal
                break
            }
            if state.pointee.cancelled.load(ordering: .acquiring) {
                cancelled = true
                break
            }
            if state.pointee.serverShutDown.load(ordering: .acquiring) { break }
            _ = state.pointee.wake.wait(seconds: 0.05)
        }
        stop()

        if let caught {
            job.abort()
            throw .interrupted(signal: caught, framesDone: job.outputFrames)
        }
        if cancelled {
            job.abort()
            throw .cancelled(secondsDone: Double(job.outputFrames) / format.sampleRate)
        }
        if let error = cycle.error { throw .render(error) } // the job removed its files already
        if !job.isFinished {
            job.abort()
            throw .serverShutDown(server: client.serverName)
        }
        do { return try job.finish() } catch { throw .render(error) }
    }

    private func installCallbacks() throws(JackError) {
        let handle = try client.handle()
        let context = UnsafeMutableRawPointer(state)
        let process: JackProcessCallback = { frames, context in
            let state = context!.assumingMemoryBound(to: FreewheelState.self)
            // Cycles before the switch and after the stop request do nothing.
            guard state.pointee.running.load(ordering: .acquiring),
                  !state.pointee.finished.load(ordering: .acquiring),
                  let cycle = state.pointee.cycle else { return 0 }
            Unmanaged<BounceCycle>.fromOpaque(cycle).takeUnretainedValue().render(frames: Int(frames))
            return 0
        }
        guard jack_set_process_callback(handle, process, context) == 0 else {
            throw .callbackSetupFailed(callback: "process")
        }
        // Where a crash is reported, libjack's own threads get an alternate
        // signal stack too, so a plugin that overflows its stack in run()
        // reaches the report (freed as the thread ends).
        if CrashReport.isInstalled {
            guard jack_set_thread_init_callback(handle, { _ in fxhost_crash_thread_begin_for_life() }, nil) == 0 else {
                throw .callbackSetupFailed(callback: "thread init")
            }
        }
        // Only a flag and a wake-up: closing the client here is not allowed.
        let shutdown: JackShutdownCallback = { context in
            let state = context!.assumingMemoryBound(to: FreewheelState.self)
            state.pointee.serverShutDown.store(true, ordering: .releasing)
            state.pointee.wake.signal()
        }
        jack_on_shutdown(handle, shutdown, context)
    }
}

/// What the callbacks share with the thread waiting in `render`.
struct FreewheelState: ~Copyable {
    /// Set once freewheel is on, cleared before it is switched off.
    let running = Atomic<Bool>(false)
    /// The job ended (or failed): the waiting thread may stop.
    let finished = Atomic<Bool>(false)
    let serverShutDown = Atomic<Bool>(false)
    /// `cancel()` was called; cleared when `render` returns.
    let cancelled = Atomic<Bool>(false)
    /// Posted when `finished` or `serverShutDown` is set.
    let wake = PosixSemaphore()
    /// The `BounceCycle` of the render under way, unretained (`render` keeps it alive).
    var cycle: UnsafeMutableRawPointer?

    func reset() {
        running.store(false, ordering: .relaxed)
        finished.store(false, ordering: .relaxed)
        serverShutDown.store(false, ordering: .relaxed)
        while wake.tryWait() {}
    }
}

/// The process callback's work while freewheeling: render the job's
/// next blocks for the frames of this cycle (one block when the plan's
/// block size is the buffer size). Not realtime code: freewheel drops
/// realtime scheduling and lets the callback wait.
final class BounceCycle {
    let job: RenderJob
    private let state: UnsafeMutablePointer<FreewheelState>
    private(set) var error: RenderError?

    init(job: RenderJob, state: UnsafeMutablePointer<FreewheelState>) {
        self.job = job
        self.state = state
    }

    func render(frames: Int) {
        var done = 0
        do {
            while done < frames && !job.isFinished {
                done += try job.renderNextBlock(maxFrames: frames - done)
            }
        } catch {
            self.error = error
        }
        if job.isFinished || error != nil {
            state.pointee.finished.store(true, ordering: .releasing)
            state.pointee.wake.signal()
        }
    }
}
