import HostCore

extension CommandTable {
    static let learn = parameterCommand(
        "learn", help: "map the next MIDI controller that moves to PARAM (or `bypass`)",
        make: ControlCommand.learn) {
            guard case .learn(let node, let parameter) = $0 else { return nil }
            return (node, parameter)
        }

    static let unlearn = parameterCommand(
        "unlearn", help: "remove the MIDI mappings of PARAM",
        make: ControlCommand.unlearn) {
            guard case .unlearn(let node, let parameter) = $0 else { return nil }
            return (node, parameter)
        }

    static let mappings = withoutArguments(
        "map", words: ["map"], help: "list the MIDI mappings and scenes", osc: "/fxhost/map", isQuery: true, .mappings)

    static let feedback = withoutArguments(
        "feedback", words: ["feedback"],
        help: "send every mapped value to the controllers on the MIDI feedback output, so they show the state",
        osc: "/fxhost/feedback", .feedback)

    static let scene = CommandSpec(
        name: "scene", words: ["scene"], syntax: "scene NAME", help: "switch to a scene: all its values and bypasses in one block",
        osc: "/fxhost/scene", "s:scene", json: #""name": "lead""#,
        completion: [.scene],
        example: .init(console: "scene lead", osc: OSCMessage("/fxhost/scene", [.string("lead")]),
                       json: #"{"v": 1, "cmd": "scene", "name": "lead"}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(1...1, "scene NAME")
            return .scene(arguments[0])
        },
        osc: { arguments throws(OSCRequestError) in .scene(try arguments.strings(1)[0]) },
        decode: { fields throws(ProtocolError) in .scene(try fields.string("name")) },
        encode: { command in
            guard case .scene(let name) = command else { return nil }
            return ["name": .string(name)]
        })

    /// `learn` and `unlearn`: a node and one of its parameters (or `bypass`).
    private static func parameterCommand(_ name: String, help: String,
                                         make: @escaping @Sendable (String, String) -> ControlCommand,
                                         parts: @escaping @Sendable (ControlCommand) -> (String, String)?) -> CommandSpec {
        let syntax = "\(name) NODE PARAM"
        return CommandSpec(
            name: name, words: [name], syntax: syntax, help: help,
            osc: "/fxhost/\(name)", "s:node s:param", json: #""node": "amp", "param": "gain""#,
            completion: [.plugin, .parameter],
            example: .init(console: "\(name) amp gain", osc: OSCMessage("/fxhost/\(name)", [.string("amp"), .string("gain")]),
                           json: #"{"v": 1, "cmd": "\#(name)", "node": "amp", "param": "gain"}"#),
            console: { arguments throws(FrontEndError) in
                let (node, parameter) = try arguments.nodeAndParameter(usage: syntax)
                return make(node, parameter)
            },
            osc: { arguments throws(OSCRequestError) in
                let names = try arguments.strings(2)
                return make(names[0], names[1])
            },
            decode: { fields throws(ProtocolError) in make(try fields.string("node"), try fields.string("param")) },
            encode: { command in parts(command).map { ["node": .string($0.0), "param": .string($0.1)] } })
    }
}
