import Foundation

/// A JSON value, as the command protocol reads and writes it: a command
/// from a script, a reply, an announced change. A value type, so a
/// command's fields are read with checks of their own (`ProtocolError`
/// names the field) instead of a decoder's generic sentence.
package enum JSONValue: Equatable, Sendable, Codable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value):
            // JSON has no infinity or NaN: such a number (a silent meter's -inf) is written as null.
            if value.isFinite { try container.encode(value) } else { try container.encodeNil() }
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// Parses JSON text; nil when it is not JSON.
    package static func parse(_ text: String) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
    }

    /// Any `Encodable` (a status, a state) as a value, through its JSON.
    package static func encoding<T: Encodable>(_ value: T) -> JSONValue {
        guard let data = try? JSONEncoder().encode(value),
              let decoded = try? JSONDecoder().decode(JSONValue.self, from: data) else { return .null }
        return decoded
    }

    /// One line of JSON, keys sorted, as a script reads it.
    package var text: String { Self.text(of: self) }

    /// Any `Encodable` as one line of JSON, keys sorted as `text` sorts them,
    /// in one encoding (not through a `JSONValue`).
    package static func text<T: Encodable>(of value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
    }

    /// A string as JSON text: quoted as it is when nothing in it needs
    /// escaping (a node's name), else through the encoder.
    package static func quoted(_ string: String) -> String {
        string.utf8.allSatisfy { $0 >= 0x20 && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") }
            ? "\"" + string + "\"" : JSONValue.string(string).text
    }
}
