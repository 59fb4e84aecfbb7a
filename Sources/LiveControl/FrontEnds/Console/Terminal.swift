import HostCore
import JackIO
import Foundation
import Synchronization

/// Where fxhost talks to people: results on stdout, everything else on stderr.
/// While the console prompt runs (`screen`), both are printed above its
/// status line and input line, which are drawn again under them.
package enum Terminal {
    package static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    private static let activeScreen = Mutex<PromptScreen?>(nil)

    /// The console prompt's screen while it runs.
    static var screen: PromptScreen? {
        get { activeScreen.withLock { $0 } }
        set { activeScreen.withLock { $0 = newValue } }
    }

    package static func error(_ message: String) {
        standardError("fxhost: error: \(message)\n")
    }

    package static func warning(_ message: String) {
        standardError("fxhost: warning: \(message)\n")
    }

    package static func status(_ message: String) {
        standardError("\(message)\n")
    }

    /// A result on stdout, at once (a pipe or file buffers it otherwise).
    package static func output(_ text: String) {
        if let screen, isatty(STDOUT_FILENO) == 1 {
            screen.printAbove(text, to: STDOUT_FILENO)
        } else {
            print(text)
            fflush(stdout)
        }
    }

    /// Rewrites the current stderr line (progress bars).
    package static func statusLine(_ message: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(message)".utf8))
    }

    package static func printJSON<T: Encodable>(_ value: T) throws {
        print(try json(value))
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
            FileHandle.standardError.write(Data(text.utf8))
        }
    }
}
