/// The small textual languages inside a patch: numbers, gains with `dB`,
/// times with `s`/`ms`, node names, port references and parameter values.
/// Pure functions on strings, and the one definition of each: the YAML
/// parser, the `--chain` form, the command line and the live console all
/// read values through them.
package enum PatchValueSyntax {
    /// A plain decimal number: `-3`, `2.5`, `.5`, `1e-3`. No hex, `inf` or `nan`.
    package static func number(_ text: some StringProtocol) -> Double? {
        let scalars = Array(text.unicodeScalars)
        var index = 0
        func digits() -> Int {
            let start = index
            while index < scalars.count, ("0"..."9").contains(scalars[index]) { index += 1 }
            return index - start
        }
        if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
        var mantissa = digits()
        if index < scalars.count, scalars[index] == "." {
            index += 1
            mantissa += digits()
        }
        guard mantissa > 0 else { return nil }
        if index < scalars.count, scalars[index] == "e" || scalars[index] == "E" {
            index += 1
            if index < scalars.count, scalars[index] == "+" || scalars[index] == "-" { index += 1 }
            guard digits() > 0 else { return nil }
        }
        guard index == scalars.count, let value = Double(String(text)), value.isFinite else { return nil }
        return value
    }

    /// A whole number written with digits only (an optional sign).
    package static func integer(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == "-" || $0 == "+") }) else { return nil }
        return Int(text)
    }

    /// `-3dB`, `-3 dB`, `+2.5dB` or a plain number meaning dB.
    package static func decibels(_ text: String) -> Double? {
        let trimmed = text.trimmingSpaces
        var body = Substring(trimmed)
        if body.lowercased().hasSuffix("db") { body = body.dropLast(2) }
        return number(body.trimmingSpaces)
    }

    /// `1.5s`, `250ms` or a plain number meaning seconds.
    package static func seconds(_ text: String) -> Double? {
        let trimmed = Substring(text.trimmingSpaces)
        if trimmed.hasSuffix("ms") { return number(trimmed.dropLast(2).trimmingSpaces).map { $0 / 1000 } }
        if trimmed.hasSuffix("s") { return number(trimmed.dropLast(1).trimmingSpaces) }
        return number(trimmed)
    }

    /// `[A-Za-z_][A-Za-z0-9_-]*`
    package static func isNodeName(_ text: some StringProtocol) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == "-" }
    }

    /// An LV2 symbol: `[A-Za-z_][A-Za-z0-9_]*`
    package static func isSymbol(_ text: some StringProtocol) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return text.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }

    /// What `params:` and `--chain` accept as a parameter's name: a port
    /// symbol (or a message parameter's short name, which has its form), or
    /// a message parameter's full URI (`scheme:…`, no spaces).
    package static func isParameterName(_ text: some StringProtocol) -> Bool {
        if isSymbol(text) { return true }
        guard let colon = text.firstIndex(of: ":"), colon != text.startIndex,
              isSymbol(text[..<colon]), text.index(after: colon) != text.endIndex else { return false }
        return !text.contains(where: { $0.isWhitespace || $0 == "=" })
    }

    package static let nodeNameRule = "node names start with a letter or `_` and contain only letters, digits, `_` and `-`"

    /// Parses `node`, `node:N` or `node:symbol`. On failure, says why in one clause.
    static func portReference(_ text: String) -> Result<(node: String, port: PortSelector), PortSyntaxError> {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let node = parts[0]
        guard isNodeName(node) else {
            return .failure(PortSyntaxError(reason: node.isEmpty ? "it names no node" : "`\(node)` is not a node name; \(nodeNameRule)"))
        }
        guard parts.count == 2 else { return .success((String(node), .all)) }
        let port = parts[1]
        if let first = port.unicodeScalars.first, first.isASCIIDigit {
            guard let channel = integer(port) else {
                return .failure(PortSyntaxError(reason: "`\(port)` is neither a channel number nor a port symbol"))
            }
            guard channel >= 1 else {
                return .failure(PortSyntaxError(reason: "channels are counted from 1"))
            }
            return .success((String(node), .channel(channel)))
        }
        guard isSymbol(port) else {
            return .failure(PortSyntaxError(reason: port.isEmpty
                ? "nothing follows the `:`; write `\(node):1` for a channel or `\(node):symbol` for a port"
                : "`\(port)` is neither a channel number nor a port symbol"))
        }
        return .success((String(node), .symbol(String(port))))
    }

    struct PortSyntaxError: Error {
        var reason: String
    }

    /// A parameter value written as text (`--chain`, the console): a number,
    /// `true`/`false` (any case) for a toggle, otherwise an enumeration label.
    /// The same reading YAML gives an unquoted scalar.
    package static func parameterValue(_ text: String) -> ParameterValue {
        if let value = number(text) { return .number(value) }
        switch text.lowercased() {
        case "true": return .toggle(true)
        case "false": return .toggle(false)
        default: return .label(text)
        }
    }
}

extension PortReference {
    /// `node`, `node:N` or `node:symbol`, as a patch writes it. The error
    /// says what is wrong with `text` in one sentence.
    package init(parsing text: String) throws(GraphError) {
        switch PatchValueSyntax.portReference(text) {
        case .success(let parsed): self.init(node: parsed.node, port: parsed.port)
        case .failure(let error): throw GraphError("`\(text)` is not a port: \(error.reason)")
        }
    }
}

extension Unicode.Scalar {
    var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension StringProtocol {
    /// Without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else {
            return Substring("")
        }
        return Substring(self[start...end])
    }
}
