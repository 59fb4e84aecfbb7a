import Glibc
import Synchronization

/// The signal that asked the running render to stop (0: none). A C signal
/// handler can reach nothing but globals, so this one atomic is the only
/// global state: the handler stores into it (lock-free, async-signal-safe)
/// and the render's thread polls it and stops.
private let stopSignal = Atomic<Int32>(0)
/// How many `StopSignals` are active (a batch worker's, around a render's):
/// only the outermost clears what was caught, so a signal caught while an
/// inner one was set up is not lost.
private let activeStopSignals = Atomic<Int>(0)

/// Catches SIGINT and SIGTERM while a render runs, so that it can clean up
/// (remove partial files, switch JACK's freewheel off) before the process
/// ends; `restore()` puts the previous handlers back.
package struct StopSignals {
    private var previous: [(signal: Int32, action: sigaction)] = []

    package init() {
        activeStopSignals.wrappingAdd(1, ordering: .relaxed)
        for number in [SIGINT, SIGTERM] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in stopSignal.store(number, ordering: .relaxed) }
            sigemptyset(&action.sa_mask)
            action.sa_flags = SA_RESTART
            var old = sigaction()
            if sigaction(number, &action, &old) == 0 { previous.append((number, old)) }
        }
    }

    /// The signal caught since `init`, or nil.
    package var caught: Int32? {
        let number = stopSignal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    package func restore() {
        for (number, action) in previous {
            var action = action
            sigaction(number, &action, nil)
        }
        if activeStopSignals.wrappingSubtract(1, ordering: .relaxed).newValue == 0 {
            stopSignal.store(0, ordering: .relaxed)
        }
    }
}

/// The name people know a signal by ("SIGINT", "SIGSEGV"), or "signal N".
package func signalName(_ number: Int32) -> String {
    let known: [Int32: String] = [
        SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGABRT: "SIGABRT",
        SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS",
        SIGPIPE: "SIGPIPE", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT",
        SIGSTOP: "SIGSTOP", SIGTSTP: "SIGTSTP", SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU",
    ]
    return known[number] ?? "signal \(number)"
}
