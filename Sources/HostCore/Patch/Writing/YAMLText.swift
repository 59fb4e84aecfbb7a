/// Scalars as fxhost writes them into a patch: plain where YAML reads the
/// text back as the same string, double-quoted otherwise.
package enum YAMLText {
    /// A string (a name, a path, a URI, a label) that must read back as text.
    package static func string(_ text: String) -> String {
        isPlainSafe(text) ? text : quoted(text)
    }

    package static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            default:
                if scalar.value < 0x20 {
                    result += "\\x" + (scalar.value < 0x10 ? "0" : "") + String(scalar.value, radix: 16)
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// A number so that reading it back gives the same value: a parameter's
    /// Float by its own shortest text (`0.501187`, not its Double widening).
    package static func number(_ value: Double) -> String {
        let narrow = Float(value)
        if Double(narrow) == value {
            let text = NumberText.format(narrow)
            if let back = Double(text), Float(back) == narrow { return text }
        }
        return NumberText.format(value)
    }

    package static func parameterValue(_ value: ParameterValue) -> String {
        switch value {
        case .number(let number): return number.isFinite ? Self.number(number) : quoted(String(number))
        case .toggle(let on): return on ? "true" : "false"
        case .label(let label): return quoted(label)
        }
    }

    /// `-6dB`, `0dB`.
    package static func decibels(_ value: Double) -> String { number(value) + "dB" }

    /// `1.5s`.
    package static func seconds(_ value: Double) -> String { number(value) + "s" }

    /// Plain only when the text is made of characters that cannot start or
    /// end a YAML construct and does not read as something else (a number,
    /// a boolean, null).
    private static func isPlainSafe(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first else { return false }
        let allowed = { (scalar: Unicode.Scalar) -> Bool in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "_", "-", ".", "/", ":", "+", "~": return true
            default: return false
            }
        }
        guard text.unicodeScalars.allSatisfy(allowed) else { return false }
        guard first != "-" && first != ":" && first != "~" && text.unicodeScalars.last != ":" else { return false }
        if PatchValueSyntax.number(text) != nil { return false }
        let reserved = ["true", "false", "yes", "no", "on", "off", "null"]
        return !reserved.contains(text.lowercased())
    }
}
