import HostCore

/// A console line's words after the ones that chose the command, with the
/// readers every command shares, so each refusal is worded once.
package struct ConsoleArguments: Sendable {
    /// The words after the command's own.
    package var words: [String]

    package init(_ words: [String]) {
        self.words = words
    }

    package var count: Int { words.count }
    package subscript(index: Int) -> String { words[index] }

    /// Refuses any other number of arguments with the command's usage.
    package func expect(_ count: ClosedRange<Int>, _ usage: String) throws(FrontEndError) {
        guard count.contains(words.count) else { throw FrontEndError("usage: \(usage)") }
    }

    /// `node`, `node:N` or `node:symbol`.
    package static func port(_ text: String) throws(FrontEndError) -> PortReference {
        do {
            return try PortReference(parsing: text)
        } catch {
            throw FrontEndError(error.message)
        }
    }

    /// "-6", "-6dB", "-6 dB".
    package static func decibels(_ text: String) throws(FrontEndError) -> Double {
        guard let value = PatchValueSyntax.decibels(text) else {
            throw FrontEndError("a gain is a number of decibels such as -6dB, not `\(text)`")
        }
        return value
    }

    /// `NODE PARAM` or `NODE:PARAM`.
    package func nodeAndParameter(usage: String) throws(FrontEndError) -> (String, String) {
        if words.count == 2 { return (words[0], words[1]) }
        if words.count == 1, let colon = words[0].firstIndex(of: ":"),
           colon != words[0].startIndex, colon != words[0].index(before: words[0].endIndex) {
            return (String(words[0][..<colon]), String(words[0][words[0].index(after: colon)...]))
        }
        throw FrontEndError("usage: \(usage)")
    }
}
