import JackIO
import Foundation
import HostCore
import Synchronization

/// The console when stdin and stderr are a terminal: a prompt with line
/// editing, history kept across runs, and Tab completion, under a status
/// line that never overwrites it. Its thread ("fxhost console") reads the
/// keys, edits the line and draws it through the `PromptScreen`; finished
/// lines wait for the host's `takeLines()`, as `ConsoleReader`'s do, and
/// each wakes the host (`wake`).
/// The names Tab completes come from the run loop (`offer`), which owns
/// the session.
final class ConsolePrompt: Sendable {
    let screen: PromptScreen
    private let historyFile: URL?
    private let wake: @Sendable () -> Void
    private let shared = Mutex(Shared())

    private struct Shared {
        var lines: [String] = []
        var names = CompletionSource()
        /// Set by `finish`: keys read after it (the terminal is cooked again) are no commands.
        var finished = false
    }

    /// A terminal we are in the foreground of on stdin, another on stderr
    /// (where the prompt is drawn), and one that understands cursor moves.
    static var wanted: Bool {
        let term = ProcessInfo.processInfo.environment["TERM"] ?? ""
        return isatty(STDIN_FILENO) == 1 && isatty(STDERR_FILENO) == 1 && ConsoleReader.standardInputIsConsole
            && !term.isEmpty && term != "dumb"
    }

    init(screen: PromptScreen = PromptScreen(), historyFile: URL? = LineHistory.file(),
         wake: @escaping @Sendable () -> Void = {}) {
        self.screen = screen
        self.historyFile = historyFile
        self.wake = wake
    }

    /// Switches the terminal to raw mode and starts reading keys; false
    /// when it cannot (then the caller reads lines as from a pipe).
    func start() -> Bool {
        // Moved to the background later (bg after a stop from outside), a
        // read would stop the process with SIGTTIN, and a write or a terminal
        // setting with SIGTTOU: ignored, the read fails and the console ends
        // while the audio plays on, and the terminal is still given back.
        signal(SIGTTIN, SIG_IGN)
        signal(SIGTTOU, SIG_IGN)
        guard RawTerminalMode.enter() else { return false }
        let history = LineHistory.load(from: historyFile)
        screen.start()
        do {
            // Detached: it reads until stdin ends, and the process may exit first.
            try PosixThread(name: "fxhost console") { [self] in readKeys(LineEditor(history: history)) }.detach()
        } catch {
            finish()
            return false
        }
        return true
    }

    func takeLines() -> [String] {
        shared.withLock { shared in
            defer { shared.lines = [] }
            return shared.lines
        }
    }

    /// The names Tab completes from now on.
    func offer(_ names: CompletionSource) {
        shared.withLock { $0.names = names }
    }

    /// Clears the prompt and gives the terminal back as it was.
    func finish() {
        shared.withLock { $0.finished = true }
        screen.finish()
        RawTerminalMode.restore()
    }

    private func readKeys(_ start: LineEditor) {
        var editor = start
        var decoder = ConsoleKeyDecoder()
        var lastKeyWasTab = false
        var buffer = [UInt8](repeating: 0, count: 256)
        while true {
            let count = read(STDIN_FILENO, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return }  // stdin ended or is gone: no more commands, the audio plays on
            if shared.withLock({ $0.finished }) { return }
            for key in decoder.keys(from: buffer[..<count]) {
                let event = editor.handle(key)
                defer { lastKeyWasTab = event == .complete }
                switch event {
                case .edited, .unchanged:
                    break
                case .submitted(let line):
                    screen.printAbove(screen.prompt + line, to: STDERR_FILENO)
                    shared.withLock { $0.lines.append(line) }
                    wake()
                    editor.history.save(to: historyFile)
                case .complete:
                    complete(&editor, listing: lastKeyWasTab)
                case .endOfInput:
                    screen.printAbove(screen.prompt + "quit", to: STDERR_FILENO)
                    shared.withLock { $0.lines.append("quit") }
                    wake()
                    return
                case .clearScreen:
                    screen.clearScreen()
                }
            }
            screen.show(PromptScreen.Input(characters: editor.characters, cursor: editor.cursor))
        }
    }

    /// Tab: the word completed as far as the names agree; a second Tab with
    /// nothing to add lists them above the prompt.
    private func complete(_ editor: inout LineEditor, listing: Bool) {
        let names = shared.withLock { $0.names }
        let completion = ConsoleCompletion.complete(editor.characters, cursor: editor.cursor, source: names)
        if let replacement = completion.replacement {
            editor.replace(completion.range, with: replacement)
        } else if listing && completion.candidates.count > 1 {
            screen.printAbove(PromptLayout.columns(completion.listed, width: screen.width), to: STDERR_FILENO)
        }
    }
}
