import HostCore

/// A JSON command's fields, with the readers every command shares; each
/// field read is noted, so a field no command reads (a typo) is refused
/// rather than ignored.
package struct JSONFields: Sendable {
    /// The command's name, for the sentences.
    package var command: String
    package var fields: [String: JSONValue]
    private(set) var read: Set<String> = ["v", "cmd"]

    package init(command: String, fields: [String: JSONValue]) {
        self.command = command
        self.fields = fields
    }

    /// Fields present that nothing read.
    var unread: [String] { fields.keys.filter { !read.contains($0) }.sorted() }

    private mutating func take(_ key: String) -> JSONValue? {
        read.insert(key)
        guard let value = fields[key], value != .null else { return nil }
        return value
    }

    private func wrong(_ key: String, _ what: String) -> ProtocolError {
        ProtocolError("`\(command)` takes `\(key)` as \(what)")
    }

    package mutating func string(_ key: String) throws(ProtocolError) -> String {
        guard let text = try optionalString(key) else { throw wrong(key, "a string") }
        return text
    }

    package mutating func optionalString(_ key: String) throws(ProtocolError) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let text) = value else { throw wrong(key, "a string") }
        return text
    }

    package mutating func number(_ key: String) throws(ProtocolError) -> Double {
        guard let number = try optionalNumber(key) else { throw wrong(key, "a number") }
        return number
    }

    package mutating func optionalNumber(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = take(key) else { return nil }
        guard case .number(let number) = value, number.isFinite else { throw wrong(key, "a number") }
        return number
    }

    package mutating func optionalBool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = take(key) else { return nil }
        guard case .bool(let flag) = value else { throw wrong(key, "true or false") }
        return flag
    }

    package mutating func bool(_ key: String) throws(ProtocolError) -> Bool {
        guard case .bool(let flag)? = take(key) else { throw wrong(key, "true or false") }
        return flag
    }

    /// `node`, `node:N` or `node:symbol`.
    package mutating func port(_ key: String) throws(ProtocolError) -> PortReference {
        let text = try string(key)
        do {
            return try PortReference(parsing: text)
        } catch {
            throw ProtocolError("`\(command)` `\(key)`: \(error.message)")
        }
    }

    /// A parameter's value: a number, true or false, or an option's label.
    package mutating func parameterValue(_ key: String) throws(ProtocolError) -> ParameterValue {
        switch take(key) {
        case .number(let number)? where number.isFinite: return .number(number)
        case .bool(let flag)?: return .toggle(flag)
        case .string(let text)?: return PatchValueSyntax.parameterValue(text)
        default: throw wrong(key, "a number, true or false, or a label")
        }
    }
}

/// A JSON command that cannot be read, in one sentence.
package struct ProtocolError: Error, Equatable, UserFacingError {
    package var description: String
    package init(_ description: String) { self.description = description }
}
