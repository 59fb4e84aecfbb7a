/// A parameter value as written: a number, a toggle, or an enumeration label.
public enum ParameterValue: Sendable, Equatable, CustomStringConvertible, Codable {
    case number(Double)
    case toggle(Bool)
    case label(String)

    public var description: String {
        switch self {
        case .number(let value): return NumberText.format(value)
        case .toggle(let value): return value ? "true" : "false"
        case .label(let label): return "\"\(label)\""
        }
    }
}
