import HostCore

/// A message parameter's value as the host sends it in `patch:value` and
/// reads it back from a plugin's notify output: one case per `rdfs:range`
/// type fxhost speaks. A path is absolute by the time it is one of these.
package enum PropertyValue: Equatable, Sendable {
    case path(String)
    case string(String)
    case float(Float)
    case double(Double)
    case int(Int32)
    case long(Int64)
    case bool(Bool)
    /// A URID, by the URI it stands for.
    case urid(String)
    case uri(String)

    /// As `status`, `save` and the console show it.
    package var text: String {
        switch self {
        case .path(let text), .string(let text), .urid(let text), .uri(let text): text
        case .float(let value): NumberText.format(value)
        case .double(let value): NumberText.format(value)
        case .int(let value): String(value)
        case .long(let value): String(value)
        case .bool(let value): value ? "true" : "false"
        }
    }

    /// As a patch's `params:` writes it back: a number, a toggle, or text.
    package var parameterValue: ParameterValue {
        switch self {
        case .path(let text), .string(let text), .urid(let text), .uri(let text): .label(text)
        case .float(let value): .number(Double(value))
        case .double(let value): .number(value)
        case .int(let value): .number(Double(value))
        case .long(let value): .number(Double(value))
        case .bool(let value): .toggle(value)
        }
    }
}
