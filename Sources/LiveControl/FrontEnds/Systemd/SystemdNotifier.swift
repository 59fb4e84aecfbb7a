import Foundation

/// `fxhost run` as a systemd service (`Type=notify`): systemd's notify
/// protocol, written here without libsystemd, one datagram per message on
/// an AF_UNIX socket to `$NOTIFY_SOCKET`. Without that variable it does
/// nothing, so `run` attaches it always.
///
/// - `READY=1` with `STATUS=playing …` at `start`. `LiveHost.run` starts
///   front ends after `session.start()` and `connectPorts()`, in the order
///   attached; attached last, this one says ready once the engine plays,
///   its ports connected and every other front end listening.
/// - `WATCHDOG=1` every half of `$WATCHDOG_USEC`, on the host's timer
///   (`nextDeadline`), so the ping proves the run loop turns; an idle
///   host wakes for it and for nothing else.
/// - `STATUS=warning: …` for each warning the host notes, and the plain
///   note that follows one (the server back), so `systemctl status` is not
///   left showing a warning that is over.
/// - `STOPPING=1` at `stop`, before the taps are finalised.
///
/// It is a front end, not part of the loop, so it moves unchanged to the
/// supervisor that will hold the front ends when the engine becomes a
/// child process (issue 18). A message that cannot be sent (no one
/// listening, a full queue: the socket never blocks) is counted in
/// `undelivered` and warned about once; the run goes on.
package final class SystemdNotifier: LiveFrontEnd {
    private let address: SystemdNotifyAddress?
    private let watchdog: SystemdWatchdog?
    private let playing: String
    private let warn: (String) -> Void
    private var socket: Int32 = -1
    /// When the next ping is due (`MonotonicClock` seconds), from `start` to `stop`.
    private var nextPing: Double?
    private var showsWarning = false
    /// Messages systemd was not sent.
    package private(set) var undelivered = 0

    /// `playing`: what plays where, for the status line (`amp.yaml on the
    /// JACK server studio`). `warn` prints a sentence for the operator (the
    /// journal reads stderr); each problem with the environment is one
    /// warning here, and the run goes on without what it asked for.
    package init(playing: String, environment: [String: String] = ProcessInfo.processInfo.environment,
                 processID: Int32 = getpid(), warn: @escaping (String) -> Void = { Terminal.warning($0) }) {
        self.playing = playing
        self.warn = warn
        // Unset or empty: not a service of systemd's, and nothing to say.
        guard let text = environment["NOTIFY_SOCKET"], !text.isEmpty else {
            (address, watchdog) = (nil, nil)
            return
        }
        do {
            address = try SystemdNotifyAddress(parsing: text)
        } catch {
            warn(error.description)
            (address, watchdog) = (nil, nil)
            return
        }
        do {
            watchdog = try SystemdWatchdog.from(environment: environment, processID: processID)
        } catch {
            warn(error.description)
            watchdog = nil
        }
        // Non-blocking: a systemd that does not read must never hold up the host's thread.
        socket = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        if socket < 0 {
            warn("cannot open a socket to notify systemd (\(String(cString: strerror(errno)))), so systemd is not told anything")
        }
    }

    deinit { closeSocket() }

    /// True when systemd is listening (a usable `$NOTIFY_SOCKET`).
    package var isActive: Bool { socket >= 0 }

    /// The watchdog kept, if any.
    package var keptWatchdog: SystemdWatchdog? { isActive ? watchdog : nil }

    package func start(_ host: LiveHost) { ready() }

    /// The engine plays: `READY=1`, and the pings begin.
    package func ready() {
        notify("READY=1\nSTATUS=" + SystemdStatusText.line("playing " + playing))
        if keptWatchdog != nil { nextPing = 0 }
    }

    package func service(now: Double) -> LiveFrontEndOutcome {
        keepAlive(now: now)
        return .keepRunning
    }

    /// The ping, when due: from the loop, and from the supervisor's bounded
    /// waits (a restart after a crash in a bounce holds it some 10 s).
    package func keepAlive(now: Double) {
        if let due = nextPing, let watchdog = keptWatchdog, now >= due {
            notify("WATCHDOG=1")
            // From now, not from when it was due: a late turn never bunches pings.
            nextPing = now + watchdog.period
        }
    }

    package func nextDeadline() -> Double? { nextPing }

    package func note(_ text: String, isWarning: Bool) {
        guard isWarning || showsWarning else { return }
        showsWarning = isWarning
        notify("STATUS=" + SystemdStatusText.line(isWarning ? "warning: " + text : text))
    }

    package func stop() {
        guard isActive else { return }
        notify("STOPPING=1")
        nextPing = nil
        closeSocket()
    }

    /// Sends one message (assignments separated by newlines) as one datagram.
    package func notify(_ message: String) {
        guard isActive, let address else { return }
        let bytes = Array(message.utf8)
        var sent: Int
        repeat {
            sent = address.withSocketAddress { target, length in
                bytes.withUnsafeBytes { sendto(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), target, length) }
            }
        } while sent < 0 && errno == EINTR
        guard sent < 0 else { return }
        let reason = String(cString: strerror(errno))
        undelivered += 1
        if undelivered == 1 {
            warn("systemd's notification socket did not take a message (\(reason)); playing on, and this is said once")
        }
    }

    private func closeSocket() {
        if socket >= 0 { close(socket) }
        socket = -1
    }
}
