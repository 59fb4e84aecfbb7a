import Foundation
import HostCore
import JackIO
import Synchronization

/// SIGINT, SIGTERM and SIGHUP, blocked for every thread and taken by a
/// thread of its own in `sigwait`, which sets a flag and wakes the host's
/// loop: no work ever happens in a signal handler. Make it first thing,
/// before any other thread exists (libjack's included), so every thread
/// inherits the mask. (A render uses HostCore's StopSignals, a handler that
/// sets a flag, because library code cannot block signals for a process it
/// does not own; `run` owns it.)
public final class BlockedStopSignals: Sendable {
    /// Signalled when a stop signal came; the host polls it.
    package let notifier = EventNotifier()
    private let arrived = Atomic<Bool>(false)

    public init() {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        // The terminal closing ends the run the same way: taps finalised.
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // Output piped into a reader that quits (`| head`) must not kill the
        // process mid-recording: writes fail with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
        let waited = set
        // Detached: it waits as long as the process lives. Should it not start,
        // the signals are let through again: Ctrl-C must never be swallowed.
        do {
            try PosixThread(name: "fxhost signals") { [self] in
            var set = waited
            var number: Int32 = 0
            while true {
                guard sigwait(&set, &number) == 0 else { continue }
                arrived.store(true, ordering: .releasing)
                notifier.signal()
            }
            }.detach()
        } catch {
            pthread_sigmask(SIG_UNBLOCK, &set, nil)
        }
    }

    /// True when a stop signal came (it is taken).
    package func take() -> Bool {
        arrived.exchange(false, ordering: .acquiringAndReleasing)
    }
}
