import HostCore
import Foundation
import JackIO

/// The console of `fxhost run`, as its front end sees it: lines typed (from
/// the prompt on a terminal, else line by line from a pipe, as before), and
/// the status line (on a terminal, above the prompt; without the prompt,
/// rewritten in place on stderr).
final class LiveConsole {
    private var prompt: ConsolePrompt?
    private var reader: ConsoleReader?
    let showsStatus: Bool

    private let wake: @Sendable () -> Void

    /// `wake` is called, from the reading thread, after each line.
    init(showsStatus: Bool, wake: @escaping @Sendable () -> Void) {
        self.showsStatus = showsStatus
        self.wake = wake
        if ConsolePrompt.wanted {
            prompt = ConsolePrompt(wake: wake)
            reader = nil
        } else {
            prompt = nil
            reader = ConsoleReader.standardInputIsConsole ? ConsoleReader(wake: wake) : nil
        }
    }

    /// A prompt on the terminal: Tab completes from names the host offers.
    var hasPrompt: Bool { prompt != nil }

    func start() {
        if let prompt {
            if prompt.start() {
                Terminal.screen = prompt.screen
                return
            }
            // No raw mode after all (a terminal that refuses it): lines as from a pipe.
            self.prompt = nil
            reader = ConsoleReader(wake: wake)
        }
        reader?.start()
    }

    func takeLines() -> [String] {
        prompt?.takeLines() ?? reader?.takeLines() ?? []
    }

    /// Before printing on stderr without the prompt: the status line
    /// rewritten in place must not be left under the text.
    func clearStatus() {
        if prompt == nil && showsStatus { Terminal.statusLine("") }
    }

    func show(_ status: LiveStatus) {
        let text = LiveStatusLine.text(status)
        if let prompt { prompt.screen.setStatus(TerminalText.escaped(text)) } else { Terminal.statusLine(text) }
    }

    /// The names Tab completes, from the session as it is now.
    func offerCompletions(_ source: CompletionSource) {
        prompt?.offer(source)
    }

    /// The prompt and status line cleared and the terminal given back, on every way out of the run loop.
    func finish() {
        Terminal.screen = nil
        prompt?.finish()
        clearStatus()
    }
}
