import Foundation

/// Where fxhost talks to people: results on stdout, everything else on stderr.
enum Terminal {
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data("fxhost: error: \(message)\n".utf8))
    }

    static func warning(_ message: String) {
        FileHandle.standardError.write(Data("fxhost: warning: \(message)\n".utf8))
    }

    static func status(_ message: String) {
        FileHandle.standardError.write(Data("\(message)\n".utf8))
    }

    /// Rewrites the current stderr line (progress bars).
    static func statusLine(_ message: String) {
        FileHandle.standardError.write(Data("\r\u{1B}[2K\(message)".utf8))
    }

    static func printJSON<T: Encodable>(_ value: T) throws {
        print(try json(value))
    }

    /// The JSON `printJSON` prints (OSC's `/fxhost/status` sends the same).
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
