import HostCore
import JackIO
import Foundation
import Synchronization

/// The bottom of the terminal while the console prompt runs: the status
/// line, and under it the prompt with the line being typed and the cursor
/// in it. Everything that reaches the terminal meanwhile goes through here,
/// under one lock, from any thread: the run loop's status (redrawn alone,
/// the cursor put back where it was), the console thread's keys, and text
/// printed above (echoes, answers, errors, warnings: the two lines are
/// cleared, the text written, and the two lines drawn again under it).
final class PromptScreen: Sendable {
    struct Input: Equatable {
        var characters: [Character] = []
        var cursor = 0
    }

    private struct State {
        var status: String?
        var input = Input()
        /// How many lines are on screen now: 0 before the first draw and after `finish`, else 1 or 2.
        var drawnLines = 0
        var finished = false
    }

    let prompt: String
    private let state = Mutex(State())
    /// Where the prompt and the status line are drawn.
    private let terminal = STDERR_FILENO

    init(prompt: String = "fxhost> ") {
        self.prompt = prompt
    }

    /// Draws the prompt (and the status line, once there is one).
    func start() {
        state.withLock { state in
            write(redraw(&state), to: terminal)
        }
    }

    /// The line being typed changed: only the input line is drawn again.
    func show(_ input: Input) {
        state.withLock { state in
            guard !state.finished, state.input != input || state.drawnLines == 0 else { return }
            state.input = input
            write(state.drawnLines == 0 ? redraw(&state) : PromptLayout.clearLine + inputText(state), to: terminal)
        }
    }

    /// A new status text (nil: none): drawn over the old one, above the
    /// prompt, the cursor left where it was in the input line.
    func setStatus(_ text: String?) {
        state.withLock { state in
            guard !state.finished, state.status != text else { return }
            let hadStatus = state.status != nil
            state.status = text
            if let text, hadStatus, state.drawnLines == 2 {
                write(PromptLayout.saveCursor + PromptLayout.lineUp + PromptLayout.clearLine
                      + PromptLayout.statusLine(text, width: Self.width()) + PromptLayout.restoreCursor, to: terminal)
            } else {
                write(redraw(&state), to: terminal)
            }
        }
    }

    /// Prints `text` (a newline added if it has none) on `descriptor`
    /// above the status line and the prompt, which are drawn again under it.
    func printAbove(_ text: String, to descriptor: Int32) {
        let text = text.hasSuffix("\n") ? text : text + "\n"
        fflush(stdout)  // nothing print() buffered may come after it
        state.withLock { state in
            guard !state.finished else { return write(text, to: descriptor) }
            write(PromptLayout.clear(lines: state.drawnLines), to: terminal)
            state.drawnLines = 0
            write(text, to: descriptor)
            write(redraw(&state), to: terminal)
        }
    }

    /// Ctrl-L: a clear screen with the status line and the prompt at its top.
    func clearScreen() {
        state.withLock { state in
            guard !state.finished else { return }
            state.drawnLines = 0
            write(PromptLayout.clearScreen + redraw(&state), to: terminal)
        }
    }

    /// Clears the two lines and draws nothing more: what is printed after
    /// this goes straight to the terminal.
    func finish() {
        state.withLock { state in
            guard !state.finished else { return }
            write(PromptLayout.clear(lines: state.drawnLines), to: terminal)
            state.drawnLines = 0
            state.finished = true
        }
    }

    /// Clears what is drawn and draws the status line (if any) and the input line.
    private func redraw(_ state: inout State) -> String {
        var text = PromptLayout.clear(lines: state.drawnLines)
        if let status = state.status {
            text += PromptLayout.statusLine(status, width: Self.width()) + "\r\n"
        }
        text += inputText(state)
        state.drawnLines = state.status == nil ? 1 : 2
        return text
    }

    private func inputText(_ state: State) -> String {
        let line = PromptLayout.inputLine(prompt: prompt, characters: state.input.characters,
                                          cursor: state.input.cursor, width: Self.width())
        return line.text + PromptLayout.column(line.column)
    }

    /// The terminal's width in columns now.
    var width: Int { Self.width() }

    /// The terminal's width in columns now (80 when it does not say).
    private static func width() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }

    private func write(_ text: String, to descriptor: Int32) {
        Terminal.writeAll(text, to: descriptor)  // a terminal gone: nothing more to show
    }
}
