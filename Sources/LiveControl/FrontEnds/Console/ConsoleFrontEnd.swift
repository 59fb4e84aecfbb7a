import HostCore
import JackIO

/// The console as a front end of the host: lines typed (at the prompt, or
/// from a pipe) are read on a thread of their own and wake the host, which
/// runs them through the `ConsoleInterpreter`; changes and other front
/// ends' refusals are echoed; the status line is redrawn five times a
/// second (only when shown: a look at the status resets the peaks `status`
/// reports), and Tab's names are refreshed as often.
package final class ConsoleFrontEnd: LiveFrontEnd {
    private let showsStatus: Bool
    private var console: LiveConsole?
    private var interpreter: ConsoleInterpreter?
    private var surface: (any ControlSurface)?
    private var nextRefresh = 0.0
    private static let refreshSeconds = 0.2

    package init(showsStatus: Bool) {
        self.showsStatus = showsStatus
    }

    package func start(_ host: LiveHost) {
        let console = LiveConsole(showsStatus: showsStatus, wake: host.wake)
        console.offerCompletions(host.surface.completion)  // before the prompt shows: a Tab may come at once
        console.start()
        self.console = console
        surface = host.surface
        interpreter = ConsoleInterpreter(surface: host.surface)
    }

    package func service(now: Double) -> LiveFrontEndOutcome {
        guard let console, let interpreter, let surface else { return .keepRunning }
        for line in console.takeLines() {
            console.clearStatus()
            if interpreter.execute(line) == .quit { return .quit }
        }
        if now >= nextRefresh {
            nextRefresh = now + Self.refreshSeconds
            if console.showsStatus { console.show(surface.status()) }
            console.offerCompletions(surface.completion)
        }
        return .keepRunning
    }

    package func nextDeadline() -> Double? {
        guard let console, console.showsStatus || console.hasPrompt else { return nil }
        return nextRefresh
    }

    package func note(_ text: String, isWarning: Bool) {
        console?.clearStatus()
        if isWarning { Terminal.warning(text) } else { Terminal.status(text) }
    }

    /// The prompt and status line cleared and the terminal given back, on every way out of the loop.
    package func stop() {
        console?.finish()
        console = nil
    }
}
