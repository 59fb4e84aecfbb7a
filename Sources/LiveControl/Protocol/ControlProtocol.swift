import HostCore
import JackIO

/// The command protocol's JSON: a command (`{"v": 1, "cmd": "set", …}`, or
/// a console line as `{"v": 1, "line": "set amp gain -6"}`), the reply to
/// it, and every announced change as an event. Version 1; a request of any
/// other version is refused, so a script written for a later protocol is
/// told rather than half understood. docs/control.md lists every form.
package enum ControlProtocol {
    package static let version = 1

    /// Reads one request.
    package static func command(fromJSON text: String) throws(ProtocolError) -> ControlCommand {
        guard case .object(let fields)? = JSONValue.parse(text) else {
            throw ProtocolError("a command is a JSON object such as {\"v\": 1, \"cmd\": \"status\"}")
        }
        if let name = JSONDuplicateKeys.first(in: text) {
            throw ProtocolError("a command gives each field once, and \"\(name)\" comes twice")
        }
        return try command(from: fields)
    }

    package static func command(from fields: [String: JSONValue]) throws(ProtocolError) -> ControlCommand {
        guard fields["v"] == .number(Double(version)) else {
            throw ProtocolError("a command says which protocol it speaks: \"v\": \(version)")
        }
        if case .string(let line)? = fields["line"] {
            guard fields.count == 2 else { throw ProtocolError("a command gives either \"line\" or \"cmd\" with its fields, not both") }
            let parsed: ConsoleCommand?
            do {
                parsed = try ConsoleCommand.parse(line)
            } catch {
                throw ProtocolError(error.description)
            }
            guard case .control(let command, _)? = parsed else {
                throw ProtocolError("`\(line)` is not a command of the session")
            }
            return command
        }
        guard case .string(let name)? = fields["cmd"] else {
            throw ProtocolError("a command names what it does: \"cmd\": \"set\" (or gives a console \"line\")")
        }
        guard let spec = CommandTable.named(name) else {
            let hint = Suggestion.didYouMean(name, in: CommandTable.all.map(\.name)).map { " (\($0))" } ?? ""
            throw ProtocolError("there is no command `\(name)`\(hint)")
        }
        var reader = JSONFields(command: name, fields: fields)
        let command = try spec.decode(&reader)
        if let field = reader.unread.first {
            throw ProtocolError("`\(name)` has no field `\(field)`" + (spec.jsonFields.isEmpty ? "" : "; it takes \(spec.jsonFields)"))
        }
        return command
    }

    /// `command` as a request.
    package static func json(for command: ControlCommand) -> JSONValue {
        let spec = CommandTable.spec(of: command)
        var fields = spec.encode(command) ?? [:]
        fields["v"] = .number(Double(version))
        fields["cmd"] = .string(spec.name)
        return .object(fields)
    }

    /// The reply to a request: what it answered, or the refusal's sentence.
    package static func reply(_ result: Result<ControlResult, ControlError>) -> JSONValue {
        switch result {
        case .failure(let error):
            return refusal(error.description)
        case .success(let answer):
            var fields: [String: JSONValue] = ["v": .number(Double(version)), "ok": .bool(true)]
            switch answer {
            case .changed(let changes): fields["changes"] = .array(changes.map(event))
            case .status(let status): fields["status"] = .encoding(status)
            case .state(let state): fields["state"] = .encoding(state)
            case .quit: fields["quit"] = .bool(true)
            case .mappings(let control, let learning, let port):
                fields["mappings"] = .array(control.mappings.map { .string($0.description) })
                fields["scenes"] = .array(control.scenes.map { .string($0.name) })
                fields["learning"] = learning.map(JSONValue.string) ?? .null
                fields["port"] = port.map(JSONValue.string) ?? .null
            }
            return .object(fields)
        }
    }

    /// A request that could not be read or was refused.
    package static func refusal(_ sentence: String) -> JSONValue {
        .object(["v": .number(Double(version)), "ok": .bool(false), "error": .string(sentence)])
    }

    /// An announced change: `{"v": 1, "event": "parameter", "source": "osc:127.0.0.1:9000", …}`.
    package static func event(_ change: ControlChange) -> JSONValue {
        var fields = change.kind.jsonFields
        fields["v"] = .number(Double(version))
        fields["event"] = .string(change.kind.eventName)
        fields["source"] = .string(change.source.description)
        return .object(fields)
    }
}
