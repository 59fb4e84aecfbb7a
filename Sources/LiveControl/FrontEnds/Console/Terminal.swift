import HostCore
import JackIO
import Foundation
import Synchronization

/// Where fxhost talks to people: results on stdout, everything else on stderr.
/// While the console prompt runs (`screen`), both are printed above its
/// status line and input line, which are drawn again under them. Every
/// line passes through `TerminalText` on its way: control characters are
/// shown, not sent, and text from outside is cut to a bounded length.
package enum Terminal {
    package static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static let activeScreen = Mutex<PromptScreen?>(nil)

    /// Where results go: stdout, or the copy of it that
    /// `separateResultsFromPluginOutput` kept.
    private static let results = Atomic<Int32>(STDOUT_FILENO)

    /// From now on descriptor 1 is stderr, so whatever a plugin prints on
    /// stdout (x42's convolver prints its configuration there) lands on
    /// stderr, and results (replies, JSON) reach the real stdout alone, for
    /// a script to read. Call before anything loads a plugin. Returns the
    /// descriptor results go to (close-on-exec: no child inherits it), or
    /// nil when stdout could not be set apart (results stay on stdout).
    @discardableResult
    package static func separateResultsFromPluginOutput() -> Int32? {
        let current = results.load(ordering: .acquiring)
        guard current == STDOUT_FILENO else { return current }
        fflush(stdout)
        let copy = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3)
        guard copy >= 0 else { return nil }
        guard dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else {
            close(copy)
            return nil
        }
        results.store(copy, ordering: .releasing)
        return copy
    }

    /// The console prompt's screen while it runs.
    static var screen: PromptScreen? {
        get { activeScreen.withLock { $0 } }
        set { activeScreen.withLock { $0 = newValue } }
    }

    package static func error(_ message: String) {
        standardError("fxhost: error: \(TerminalText.escaped(message))\n")
    }

    package static func warning(_ message: String) {
        standardError("fxhost: warning: \(TerminalText.escaped(message))\n")
    }

    package static func status(_ message: String) {
        standardError("\(TerminalText.escaped(message))\n")
    }

    /// A one-line result on stdout (a change's echo, the status).
    package static func output(_ line: String) {
        write(TerminalText.escaped(line))
    }

    /// Lines the host composed (help, show, map): its own line breaks kept,
    /// each line escaped.
    package static func output(lines: [String]) {
        write(TerminalText.escaped(lines: lines))
    }

    /// A JSON reply on stdout (JSON escapes control characters; C1 controls too, here).
    package static func output(json: String) {
        write(TerminalText.json(json))
    }

    /// On stdout, at once (a pipe or file buffers it otherwise).
    private static func write(_ text: String) {
        let descriptor = results.load(ordering: .acquiring)
        if let screen, isatty(descriptor) == 1 {
            screen.printAbove(text, to: descriptor)
        } else {
            fflush(stdout)  // whatever print() buffered comes first
            writeAll(text + "\n", to: descriptor)
        }
    }

    /// Rewrites the current stderr line (progress bars).
    package static func statusLine(_ message: String) {
        writeAll("\r\u{1B}[2K\(TerminalText.escaped(message))", to: STDERR_FILENO)
    }

    package static func printJSON<T: Encodable>(_ value: T) throws {
        write(TerminalText.json(try json(value)))
    }

    /// The JSON `printJSON` prints (OSC's `/fxhost/status` sends the same).
    package static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    private static func standardError(_ text: String) {
        if let screen {
            screen.printAbove(text, to: STDERR_FILENO)
        } else {
            writeAll(text, to: STDERR_FILENO)
        }
    }

    /// Writes all of `text` to `descriptor`, ignoring failures: a terminal
    /// or pipe that is gone (EPIPE: SIGPIPE is ignored while `run` plays)
    /// must not stop the host mid-take, as a throwing write would.
    package static func writeAll(_ text: String, to descriptor: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return }
            bytes = bytes.dropFirst(written)
        }
    }
}
