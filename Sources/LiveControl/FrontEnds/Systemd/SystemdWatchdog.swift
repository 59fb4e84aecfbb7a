/// The keep-alive systemd asks of a service with `WatchdogSec=`: its
/// `$WATCHDOG_USEC`, for this process unless `$WATCHDOG_PID` names
/// another. systemd's advice is a ping every half of it.
package struct SystemdWatchdog: Equatable, Sendable {
    package let microseconds: Int

    /// What fxhost takes: 1 ms to 1 day. A shorter watchdog could not be
    /// kept by a host that sleeps until its next deadline, a longer one is
    /// a mistake.
    package static let range = 1_000...86_400_000_000

    /// Seconds between pings: half the watchdog.
    package var period: Double { Double(microseconds) / 2_000_000 }

    /// The watchdog asked of process `processID`, nil when none is (no
    /// `$WATCHDOG_USEC`, or `$WATCHDOG_PID` names another process), or
    /// the sentence that says why a value was ignored.
    package static func from(environment: [String: String], processID: Int32) throws(FrontEndError) -> SystemdWatchdog? {
        guard let text = environment["WATCHDOG_USEC"] else { return nil }
        if let pid = environment["WATCHDOG_PID"] {
            // Digits first, bounded, so no conversion can overflow.
            guard let number = digits(pid, atMost: 10).flatMap({ Int32(exactly: $0) }) else {
                throw FrontEndError("$WATCHDOG_PID `\(pid)` is not a process id, so the watchdog is not kept")
            }
            guard number == processID else { return nil }
        }
        guard let microseconds = digits(text, atMost: 12), range.contains(microseconds) else {
            throw FrontEndError("$WATCHDOG_USEC `\(text)` is not a whole number of microseconds from 1000 (1 ms) to 86400000000 (1 day), so the watchdog is not kept")
        }
        return SystemdWatchdog(microseconds: microseconds)
    }

    private init(microseconds: Int) { self.microseconds = microseconds }

    /// `text` as a number when it is 1 to `atMost` ASCII digits (no sign, no space).
    private static func digits(_ text: String, atMost: Int) -> Int? {
        let bytes = Array(text.utf8)
        guard (1...atMost).contains(bytes.count),
              bytes.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }
}
