/// Text on its way to a terminal, made harmless in one place: every line
/// `Terminal` prints passes here, so a name, path or value from outside
/// (a patch, an OSC peer, a console line, a plugin) cannot retitle, clear
/// or move the operator's terminal, split a message over lines, or flood it.
///
/// Control characters are shown, never sent:
/// - ESC as `\e`, LF as `\n`, CR as `\r`, TAB as `\t`;
/// - the other C0 controls (U+0000–U+001F) and DEL as `\xHH`: BEL is `\x07`;
/// - the C1 controls (U+0080–U+009F) as `\u{HH}`: CSI is `\u{9b}`.
///
/// A backslash is left as it is: this is for reading, not for reading back.
///
/// Length is bounded: a quoted stretch (between backticks or double quotes,
/// as messages quote what came from outside) longer than `quotedLimit`
/// characters keeps its first `quotedLimit`, then `…(N characters left out)`;
/// a line still longer than `lineLimit` keeps its start and its last
/// `lineTail` characters around the same mark.
package enum TerminalText {
    /// The most of one quoted stretch a line shows.
    package static let quotedLimit = 200
    /// The most of one line, however it is quoted.
    package static let lineLimit = 1_000
    /// What a cut line keeps of its end (where a sentence says what was meant).
    package static let lineTail = 200

    /// One line: a line break inside it is shown as `\n`.
    package static func escaped(_ text: String) -> String {
        var scalars = cutQuoted(Array(text.unicodeScalars))
        if scalars.count > lineLimit {
            let head = lineLimit - lineTail
            let leftOut = scalars.count - head - lineTail
            scalars = Array(scalars[..<head]) + Array(mark(leftOut).unicodeScalars) + ["…"]
                + Array(scalars[(scalars.count - lineTail)...])
        }
        var result = String.UnicodeScalarView()
        for scalar in scalars { append(scalar, to: &result) }
        return String(result)
    }

    /// Lines the host composed (help, show, map), each escaped as one line,
    /// joined by the host's own line breaks.
    package static func escaped(lines: [String]) -> String {
        lines.map { escaped($0) }.joined(separator: "\n")
    }

    /// JSON for a terminal: JSON escapes C0 controls itself; DEL and the C1
    /// controls, which it may leave raw, become `\u007f`…`\u009f`. They can
    /// only stand inside a JSON string, where that escape means the same
    /// character, so the JSON reads back the same.
    package static func json(_ json: String) -> String {
        guard json.unicodeScalars.contains(where: { (0x7F...0x9F).contains($0.value) }) else { return json }
        var result = String.UnicodeScalarView()
        for scalar in json.unicodeScalars {
            if (0x7F...0x9F).contains(scalar.value) {
                result.append(contentsOf: ("\\u00" + hex(scalar.value)).unicodeScalars)
            } else {
                result.append(scalar)
            }
        }
        return String(result)
    }

    /// `…(N characters left out)`
    private static func mark(_ leftOut: Int) -> String {
        "…(\(leftOut) character\(leftOut == 1 ? "" : "s") left out)"
    }

    /// Each quoted stretch longer than `quotedLimit` cut; one never closed runs to the end.
    private static func cutQuoted(_ scalars: [Unicode.Scalar]) -> [Unicode.Scalar] {
        guard scalars.count > quotedLimit else { return scalars }
        var result: [Unicode.Scalar] = []
        result.reserveCapacity(min(scalars.count, lineLimit * 2))
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            result.append(scalar)
            index += 1
            guard scalar == "`" || scalar == "\"" else { continue }
            let start = index
            var end = start
            while end < scalars.count, scalars[end] != scalar { end += 1 }
            if end - start > quotedLimit {
                result += scalars[start..<(start + quotedLimit)]
                result += mark(end - start - quotedLimit).unicodeScalars
            } else {
                result += scalars[start..<end]
            }
            if end < scalars.count { result.append(scalar) }
            index = end + 1
        }
        return result
    }

    private static func append(_ scalar: Unicode.Scalar, to result: inout String.UnicodeScalarView) {
        switch scalar.value {
        case 0x1B: result.append(contentsOf: "\\e".unicodeScalars)
        case 0x0A: result.append(contentsOf: "\\n".unicodeScalars)
        case 0x0D: result.append(contentsOf: "\\r".unicodeScalars)
        case 0x09: result.append(contentsOf: "\\t".unicodeScalars)
        case 0x00..<0x20, 0x7F: result.append(contentsOf: ("\\x" + hex(scalar.value)).unicodeScalars)
        case 0x80...0x9F: result.append(contentsOf: ("\\u{" + hex(scalar.value) + "}").unicodeScalars)
        default: result.append(scalar)
        }
    }

    /// Two lowercase hex digits.
    private static func hex(_ value: UInt32) -> String {
        let digits = Array("0123456789abcdef".unicodeScalars)
        return String(String.UnicodeScalarView([digits[Int(value >> 4 & 0xF)], digits[Int(value & 0xF)]]))
    }
}
