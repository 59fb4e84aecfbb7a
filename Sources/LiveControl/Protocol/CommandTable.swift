import HostCore

/// Every command of the protocol, each declared once (`CommandSpec`), in the
/// order the console's `help` lists them. The console, OSC and JSON readers
/// look commands up here; adding a command is one more entry here, its case
/// in `ControlCommand` and the session's side of it.
package enum CommandTable {
    package static let all: [CommandSpec] = [
        set, bypass, restore, preset, savePreset,
        tap, pauseTap, resumeTap, untap,
        connect, disconnect,
        bounce, cancelBounce,
        learn, unlearn, mappings, scene, feedback,
        save, reload, next, previous, load, tempo, tempoTap, transport,
        status, state, quit,
    ]

    /// The spec named `name` in JSON (`tap.pause`).
    package static func named(_ name: String) -> CommandSpec? { all.first { $0.name == name } }

    /// The spec an OSC address calls.
    package static func at(address: String) -> CommandSpec? { all.first { $0.oscAddress == address } }

    /// The spec a console line's words choose, and the words after its own:
    /// the longest match of its words (case-insensitive), so `tap pause X`
    /// is the pause of X, not a tap of node `pause`.
    package static func matching(_ words: [String]) -> (spec: CommandSpec, arguments: [String])? {
        let lowered = words.map { $0.lowercased() }
        var best: CommandSpec?
        for spec in all {
            let firsts = [spec.words[0]] + spec.aliases
            guard let first = lowered.first, firsts.contains(first),
                  lowered.count >= spec.words.count,
                  Array(lowered[1..<spec.words.count]) == Array(spec.words.dropFirst()) else { continue }
            if spec.words.count > best?.words.count ?? 0 { best = spec }
        }
        return best.map { ($0, Array(words.dropFirst($0.words.count))) }
    }

    /// The spec whose JSON form `command` is.
    package static func spec(of command: ControlCommand) -> CommandSpec {
        guard let spec = all.first(where: { $0.encode(command) != nil }) else {
            preconditionFailure("`\(command)` has no entry in CommandTable")
        }
        return spec
    }

    /// The console's first words, for Tab and for "did you mean".
    package static var consoleWords: [String] {
        var seen: [String] = []
        for spec in all where !seen.contains(spec.words[0]) { seen.append(spec.words[0]) }
        return seen
    }

    /// A command that takes no arguments in any form (`map`, `status`, `quit`):
    /// any word after it is refused with `usage` (by default, its syntax).
    static func withoutArguments(_ name: String, words: [String], aliases: [String] = [], syntax: String? = nil,
                                 help: String, osc address: String, isQuery: Bool = false, usage: String? = nil,
                                 _ command: ControlCommand) -> CommandSpec {
        let syntax = syntax ?? words.joined(separator: " ")
        let usage = usage ?? "usage: \(syntax)"
        return CommandSpec(
            name: name, words: words, aliases: aliases, syntax: syntax, help: help,
            osc: address, "no arguments", json: "", isQuery: isQuery,
            example: .init(console: words.joined(separator: " "), osc: OSCMessage(address),
                           json: #"{"v": 1, "cmd": "\#(name)"}"#),
            console: { arguments throws(FrontEndError) in
                guard arguments.count == 0 else { throw FrontEndError(usage) }
                return command
            },
            osc: { arguments throws(OSCRequestError) in
                _ = try arguments.strings(0)
                return command
            },
            decode: { _ throws(ProtocolError) in command },
            encode: { $0 == command ? [:] : nil })
    }
}
