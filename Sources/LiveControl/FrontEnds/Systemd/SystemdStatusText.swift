/// Text for systemd's `STATUS=`, which `systemctl status` shows as one
/// line: systemd takes the text as it is, so nothing is escaped, but a
/// newline would end the assignment and a control character has no place
/// on a status line, so each becomes a space; and it is cut to
/// `maximumBytes` of UTF-8, at a character's edge.
package enum SystemdStatusText {
    package static let maximumBytes = 200

    package static func line(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            let kept: Unicode.Scalar = isBreak(scalar) ? " " : scalar
            let size = UTF8.width(kept)
            guard bytes + size <= maximumBytes else { break }
            result.append(kept)
            bytes += size
        }
        return String(result)
    }

    /// C0, DEL and C1 controls, and Unicode's line and paragraph separators.
    private static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}"
    }
}
