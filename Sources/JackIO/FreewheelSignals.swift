import Glibc
import Synchronization

/// The signal that asked the running bounce to stop (0: none). A C signal
/// handler can reach nothing but globals, so this one atomic is the only
/// global state: the handler stores into it (lock-free, async-signal-safe)
/// and the bounce's waiting thread polls it and stops.
private let stopSignal = Atomic<Int32>(0)

/// Catches SIGINT and SIGTERM while a bounce runs, so that the bounce can
/// switch freewheel off before the process ends; `restore()` puts the
/// previous handlers back.
struct FreewheelSignals {
    private var previous: [(signal: Int32, action: sigaction)] = []

    init() {
        stopSignal.store(0, ordering: .relaxed) // initialises the global before any handler can touch it
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
    var caught: Int32? {
        let number = stopSignal.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }

    func restore() {
        for (number, action) in previous {
            var action = action
            sigaction(number, &action, nil)
        }
    }
}
