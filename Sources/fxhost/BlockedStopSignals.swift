import ArgumentParser
import Foundation
import HostCore
import JackIO

/// SIGINT, SIGTERM and SIGHUP, blocked for every thread and taken synchronously by
/// the run loop: no work ever happens in a signal handler. (A render uses
/// HostCore's StopSignals, a handler that sets a flag, because library code
/// cannot block signals for a process it does not own; `run` owns it.)
struct BlockedStopSignals {
    private var set = sigset_t()

    init() {
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        // The terminal closing ends the run the same way: taps finalised.
        sigaddset(&set, SIGHUP)
        pthread_sigmask(SIG_BLOCK, &set, nil)
        // Output piped into a reader that quits (`| head`) must not kill the
        // process mid-recording: writes fail with EPIPE instead.
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits up to `seconds` for one of them; true when one came.
    func wait(seconds: Double) -> Bool {
        var pending = set
        var timeout = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        return sigtimedwait(&pending, nil, &timeout) > 0
    }
}
