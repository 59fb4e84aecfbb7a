import Glibc

/// The names people know signals by, for a sentence about a process that died of one.
enum SignalNames {
    static func name(_ number: Int32) -> String {
        let known: [Int32: String] = [
            SIGSEGV: "SIGSEGV", SIGBUS: "SIGBUS", SIGILL: "SIGILL", SIGFPE: "SIGFPE", SIGABRT: "SIGABRT",
            SIGKILL: "SIGKILL", SIGTERM: "SIGTERM", SIGINT: "SIGINT", SIGTRAP: "SIGTRAP", SIGSYS: "SIGSYS",
            SIGPIPE: "SIGPIPE", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ", SIGHUP: "SIGHUP", SIGQUIT: "SIGQUIT",
        ]
        return known[number] ?? "signal \(number)"
    }
}
