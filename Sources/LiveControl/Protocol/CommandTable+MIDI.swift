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
        name: "scene", words: ["scene"], syntax: "scene NAME [--glide TIME]",
        help: "switch to a scene: all its values and bypasses in one block\nor, with --glide, glide there over TIME (2s, 500ms; toggles and bypasses switch at the end)",
        osc: "/fxhost/scene", "s:scene [f:glide-seconds]", json: #""name": "lead", "glide": 2"#,
        completion: [.scene],
        example: .init(console: "scene lead --glide 2s", osc: OSCMessage("/fxhost/scene", [.string("lead"), .float(2)]),
                       json: #"{"v": 1, "cmd": "scene", "name": "lead", "glide": 2}"#),
        console: { arguments throws(FrontEndError) in
            let usage = "scene NAME [--glide TIME]"
            try arguments.expect(1...3, usage)
            guard arguments.count > 1 else { return .scene(arguments[0]) }
            guard arguments.count == 3, arguments[1] == "--glide" else { throw FrontEndError("usage: \(usage)") }
            do throws(SceneGlideTimeError) {
                return .scene(arguments[0], glide: try SceneGlideTime.seconds(arguments[2]))
            } catch {
                throw FrontEndError(error.message)
            }
        },
        osc: { arguments throws(OSCRequestError) in
            let name = try arguments.strings(1, extra: 0...1)[0]
            guard arguments.count == 2 else { return .scene(name) }
            let seconds = try arguments.number(1)
            do throws(SceneGlideTimeError) {
                return .scene(name, glide: try SceneGlideTime.checked(seconds))
            } catch {
                throw .wrongArguments("/fxhost/scene: \(error.message)")
            }
        },
        decode: { fields throws(ProtocolError) in
            let name = try fields.string("name")
            guard let seconds = try fields.optionalNumber("glide") else { return .scene(name) }
            do throws(SceneGlideTimeError) {
                return .scene(name, glide: try SceneGlideTime.checked(seconds))
            } catch {
                throw ProtocolError("`scene` takes `glide` in seconds: \(error.message)")
            }
        },
        encode: { command in
            guard case .scene(let name, let glide) = command else { return nil }
            var fields: [String: JSONValue] = ["name": .string(name)]
            if let glide { fields["glide"] = .number(glide) }
            return fields
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
