import HostCore
import JackIO

/// A face of a live host: it reads its input on a thread of its own (a
/// socket, a terminal, a watched folder) and posts commands to the host's
/// inbox, which wakes the host; it hears every change through the
/// dispatcher's listeners; and it may ask the host for timed work (meters,
/// the status line). Everything here is called on the host's thread.
package protocol LiveFrontEnd: AnyObject {
    /// Before the loop: start reading, add listeners.
    func start(_ host: LiveHost) throws
    /// Each time the host wakes (after the inbox is delivered), with the
    /// time (`MonotonicClock` seconds): handle what arrived, do what is due.
    /// `.quit` ends the run (the console's `quit`).
    func service(now: Double) -> LiveFrontEndOutcome
    /// When it next wants `service` without being woken; nil: only when woken.
    func nextDeadline() -> Double?
    /// Something the host has to tell the operator (a warning, the server
    /// coming back); a front end with no operator ignores it.
    func note(_ text: String, isWarning: Bool)
    /// While the engine holds the host's thread in a wait it bounds (a
    /// restart, an answer, a server leaving freewheel), about every 0.1 s:
    /// only what shows the host is alive belongs here (systemd's
    /// watchdog); commands wait for the loop.
    func keepAlive(now: Double)
    /// After the loop, in the reverse order of `start`.
    func stop()
}

package enum LiveFrontEndOutcome { case keepRunning, quit }

extension LiveFrontEnd {
    package func service(now: Double) -> LiveFrontEndOutcome { .keepRunning }
    package func nextDeadline() -> Double? { nil }
    package func note(_ text: String, isWarning: Bool) {}
    package func keepAlive(now: Double) {}
    package func stop() {}
}
