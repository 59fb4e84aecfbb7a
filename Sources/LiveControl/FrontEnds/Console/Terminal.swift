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
        if let screen, isatty(STDOUT_FILENO) == 1 {
            screen.printAbove(text, to: STDOUT_FILENO)
        } else {
            print(text)
            fflush(stdout)
        }
    }

    /// Rewrites the current stderr line (progress bars).
    package static func statusLine(_ message: String) {
        writeAll("\r\u{1B}[2K\(TerminalText.escaped(message))", to: STDERR_FILENO)
    }

    package static func printJSON<T: Encodable>(_ value: T) throws {
        print(TerminalText.json(try json(value)))
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
