import HostCore

/// A parameter a plugin takes as a message rather than a control port
/// (`patch:writable`), or reports (`patch:readable`): an impulse response's
/// file, a sample, a gain. Set with `patch:Set` on the plugin's control
/// atom port.
package struct PropertyDescription: Codable, Sendable, Equatable {
    /// What `rdfs:range` says the value is.
    package enum ValueType: String, Codable, Sendable {
        case path, string, float, double, int, long, bool, urid, uri, vector, other

        init(range: String?) {
            switch range {
            case LV2URI.atomPath: self = .path
            case LV2URI.atomString: self = .string
            case LV2URI.atomFloat: self = .float
            case LV2URI.atomDouble: self = .double
            case LV2URI.atomInt: self = .int
            case LV2URI.atomLong: self = .long
            case LV2URI.atomBool: self = .bool
            case LV2URI.atomURID: self = .urid
            case LV2URI.atomURI: self = .uri
            case LV2URI.atomVector: self = .vector
            default: self = .other
            }
        }

        /// What a surface offers for it: a file menu, a number, text.
        package var messageParameterKind: WritableMessageParameter.Kind {
            switch self {
            case .path: .path
            case .float, .double, .int, .long: .number
            case .string, .uri: .text
            case .bool, .urid, .vector, .other: .other
            }
        }

        /// As `fxhost info` says it.
        package var phrase: String {
            switch self {
            case .path: "file path"
            case .string: "text"
            case .float, .double: "number"
            case .int, .long: "whole number"
            case .bool: "true or false"
            case .urid, .uri: "URI"
            case .vector: "list of numbers"
            case .other: "value"
            }
        }
    }

    package var uri: String
    /// `rdfs:label`; the URI's fragment when there is none.
    package var label: String
    package var valueType: ValueType
    /// The `rdfs:range` URI as written (nil: none given).
    package var range: String?
    package var minimum: Float?
    package var maximum: Float?
    package var defaultValue: Float?
    /// The host may set it (`patch:writable`); else the plugin only reports it (`patch:readable`).
    package var isWritable: Bool

    /// What a patch or the console calls it: the URI's fragment (`ir` for
    /// `…/zeroconvolv#ir`), or its last path segment.
    package var shortName: String {
        if let hash = uri.lastIndex(of: "#") { return String(uri[uri.index(after: hash)...]) }
        if let slash = uri.lastIndex(of: "/") { return String(uri[uri.index(after: slash)...]) }
        return uri
    }
}
