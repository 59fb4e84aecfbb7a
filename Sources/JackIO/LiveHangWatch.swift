import CCoreShim
import CJack
import Glibc
import HostCore
import Synchronization

/// Called by: its own thread ("fxhost hang"), started and stopped by
/// `LiveEngine` on a control thread; never the realtime thread.
///
/// Notices a live engine that stopped cycling while the server plays on: a
/// plugin spinning forever in `run()`. It looks five times a second; when the
/// engine's completed-cycle counter has not moved while the server's own
/// frame counter advanced by `seconds` worth, it interrupts the JACK process
/// thread and the render workers with `FXHOST_HANG_SIGNAL`. The one that is
/// in a plugin call reports from its own culprit cell, as a crash does (one
/// sentence naming the node, the backtrace in a log, exit status 1: CrashReport.c).
/// Only while the crash report is installed (`fxhost run`): elsewhere
/// nothing would handle the signal.
///
/// Why the server's frames and not the clock: they are the server's cycle
/// counter (`jack_get_cycle_times`, written by the server each cycle).
/// `jack_frame_time` would not do: it extrapolates from the last cycle's
/// time, and ran on while a jackd 1.9.21 stood stopped. What happens when:
/// - the server stops cycling (jackd stopped with SIGSTOP for 4 s: tried),
///   neither counter moves: no hang; a server gone: the shutdown flag ends
///   the watch;
/// - the machine suspends: JACK's clock is CLOCK_MONOTONIC, which stands
///   still in suspend, so the server's cycles stop with the engine's (not tried);
/// - the server freewheels (a live bounce, which has the engine play its
///   idle program, or `jack_freewheel`): the engine runs in every freewheel
///   cycle, and its counter moves with the server's (tried). A hang then
///   stalls the freewheel driver, which waits seconds for each cycle, so the
///   server's frames crawl and the hang is named only once freewheeling ends
///   (tried: named within 5 s of `jack_freewheel n`, never during 80 s of
///   freewheel);
/// - the engine is deactivated (`LiveEngine.stop`): the watch is stopped first.
final class LiveHangWatch {
    /// How long no cycle may complete while the server plays on.
    static let seconds = 2
    /// Between looks: often enough that `seconds` is met within a fifth of a
    /// second, seldom enough to cost nothing.
    static let lookInterval = 0.2
    /// How long interrupted threads have to answer before the next step.
    static let answerSeconds = 1.0

    /// What the watch's thread shares with its owner.
    private final class Control: Sendable {
        let wake = PosixSemaphore()
        let stopping = Atomic<Bool>(false)
        deinit { wake.deallocate() }
    }

    private let control = Control()
    private var thread: PosixThread?

    /// Starts watching the engine whose callbacks share `state`, on the
    /// active client `handle`; `workers`: its render workers' threads.
    init(handle: OpaquePointer, state: UnsafeMutablePointer<LiveEngineState>, workers: [pthread_t])
        throws(PosixThreadError) {
        // The process thread exists once the client is active.
        let threads = [jack_client_thread_id(handle)] + workers
        let control = self.control
        thread = try PosixThread(name: "fxhost hang") {
            Self.watch(handle: handle, state: state, threads: threads, control: control)
        }
    }

    deinit { stop() }

    /// Stops and joins the watch. Idempotent.
    func stop() {
        guard let thread else { return }
        control.stopping.store(true, ordering: .releasing)
        control.wake.signal()
        thread.join()
        self.thread = nil
    }

    /// The server's frame counter at its last cycle, or nil if it cannot
    /// tell (a server gone).
    private static func serverFrames(_ handle: OpaquePointer) -> UInt32? {
        var frames: jack_nframes_t = 0, now: jack_time_t = 0, next: jack_time_t = 0
        var period: Float = 0
        return jack_get_cycle_times(handle, &frames, &now, &next, &period) == 0 ? frames : nil
    }

    private static func watch(handle: OpaquePointer, state: UnsafeMutablePointer<LiveEngineState>,
                              threads: [pthread_t], control: Control) {
        var cycles = state.pointee.cycles.load(ordering: .relaxed)
        // The server's frames when the engine's cycle counter last moved.
        var since = serverFrames(handle)
        while !control.stopping.load(ordering: .acquiring) {
            _ = control.wake.wait(seconds: lookInterval)
            if control.stopping.load(ordering: .acquiring) { return }
            // A server gone takes its frame counter with it: nothing to watch.
            if state.pointee.serverShutDown.load(ordering: .acquiring) { return }
            let now = state.pointee.cycles.load(ordering: .relaxed)
            let frames = serverFrames(handle)
            guard now == cycles, let frames, let start = since else {
                cycles = now
                since = frames
                continue
            }
            // The counter wraps after a day at 48 kHz; looks are far more
            // often, so the difference as a signed 32-bit number is right,
            // and one below zero (a counter restarted) starts again.
            let advanced = Int(Int32(bitPattern: frames &- start))
            if advanced < 0 { since = frames; continue }
            let rate = max(state.pointee.sampleRate.load(ordering: .relaxed), 1)
            if advanced >= seconds * rate {
                interrupt(threads)
                return
            }
        }
    }

    /// The thread in a plugin call reports and ends the process; if none
    /// is (the host's own code stuck), the process thread says the engine
    /// hung; if even that does not end the process (the signal blocked),
    /// the watch says so itself.
    private static func interrupt(_ threads: [pthread_t]) {
        fxhost_hang_begin(Int32(seconds))
        var sent = 0
        for thread in threads where fxhost_hang_interrupt(thread) == 0 { sent += 1 }
        let deadline = MonotonicClock.nanoseconds() + Int(answerSeconds * 1e9)
        while fxhost_hang_answers() < sent && MonotonicClock.nanoseconds() < deadline {
            usleep(10_000)
        }
        fxhost_hang_report_anyway()
        if let process = threads.first, fxhost_hang_interrupt(process) == 0 {
            usleep(UInt32(answerSeconds * 1e6))
        }
        fxhost_hang_report_here()
    }
}
