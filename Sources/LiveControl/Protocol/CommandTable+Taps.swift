import HostCore

extension CommandTable {
    static let tap = CommandSpec(
        name: "tap", words: ["tap"], syntax: "tap NODE[:PORT] FILE",
        help: "start recording a node's output, or one channel (N) or port (symbol)",
        osc: "/fxhost/tap", "s:node[:port] s:file", json: #""at": "drive", "file": "take.flac""#,
        completion: [.node, .file],
        example: .init(console: "tap drive take.flac", osc: OSCMessage("/fxhost/tap", [.string("drive"), .string("take.flac")]),
                       json: #"{"v": 1, "cmd": "tap", "at": "drive", "file": "take.flac"}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(2...2, "tap NODE[:PORT] FILE")
            return .tap(try ConsoleArguments.port(arguments[0]), file: arguments[1])
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(2)
            return .tap(try arguments.port(names[0]), file: names[1])
        },
        decode: { fields throws(ProtocolError) in .tap(try fields.port("at"), file: try fields.string("file")) },
        encode: { command in
            guard case .tap(let reference, let file) = command else { return nil }
            return ["at": .string(reference.description), "file": .string(file)]
        })

    static let untap = tapAction(
        "untap", words: ["untap"], help: "stop recording (every tap on the node, or the one on PORT)",
        osc: "/fxhost/untap", make: ControlCommand.untap) {
            guard case .untap(let reference) = $0 else { return nil }
            return reference
        }

    // `tap pause X` and `tap resume X` win, as `bounce cancel` does: a node
    // named `pause` or `resume` is tapped by port (`pause:1`).
    static let pauseTap = tapAction(
        "tap.pause", words: ["tap", "pause"], help: "pause recording; the file continues where it left off on resume",
        osc: "/fxhost/tap/pause", make: ControlCommand.pauseTap) {
            guard case .pauseTap(let reference) = $0 else { return nil }
            return reference
        }

    static let resumeTap = tapAction(
        "tap.resume", words: ["tap", "resume"], help: "record again after a pause",
        osc: "/fxhost/tap/resume", make: ControlCommand.resumeTap) {
            guard case .resumeTap(let reference) = $0 else { return nil }
            return reference
        }

    /// A command on the taps of one node (or port): untap, pause, resume.
    private static func tapAction(_ name: String, words: [String], help: String, osc address: String,
                                  make: @escaping @Sendable (PortReference) -> ControlCommand,
                                  reference: @escaping @Sendable (ControlCommand) -> PortReference?) -> CommandSpec {
        let syntax = words.joined(separator: " ") + " NODE[:PORT]"
        return CommandSpec(
            name: name, words: words, syntax: syntax, help: help,
            osc: address, "s:node[:port]", json: #""at": "drive""#,
            completion: [.node],
            example: .init(console: syntax.replacingOccurrences(of: "NODE[:PORT]", with: "drive"),
                           osc: OSCMessage(address, [.string("drive")]),
                           json: #"{"v": 1, "cmd": "\#(name)", "at": "drive"}"#),
            console: { arguments throws(FrontEndError) in
                try arguments.expect(1...1, syntax)
                return make(try ConsoleArguments.port(arguments[0]))
            },
            osc: { arguments throws(OSCRequestError) in make(try arguments.port(try arguments.strings(1)[0])) },
            decode: { fields throws(ProtocolError) in make(try fields.port("at")) },
            encode: { command in reference(command).map { ["at": .string($0.description)] } })
    }
}
