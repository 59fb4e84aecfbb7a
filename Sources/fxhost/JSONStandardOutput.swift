import Foundation
import LiveControl

/// Standard output kept for a command's JSON: from `init`, descriptor 1 is
/// stderr, so whatever a plugin prints on stdout while it is loaded or run
/// (x42's convolver prints its configuration there) lands on stderr, and
/// stdout carries the JSON alone, for a script to parse.
struct JSONStandardOutput {
    private let descriptor: Int32

    /// Before anything loads a plugin.
    init() {
        fflush(stdout)
        descriptor = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
    }

    /// `value`, as `Terminal.json` writes it, on the real stdout.
    func print<T: Encodable>(_ value: T) throws {
        Terminal.writeAll(TerminalText.json(try Terminal.json(value)) + "\n", to: descriptor)
    }
}
