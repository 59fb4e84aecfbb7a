import HostCore

extension CommandTable {
    static let set = CommandSpec(
        name: "set", words: ["set"], syntax: "set NODE PARAM VALUE",
        help: "change a plugin parameter (checked against its range) or message parameter (a file: set cab ir cab.wav)",
        osc: "/fxhost/set", "s:node s:param f|i|s:value", json: #""node": "amp", "param": "gain", "value": -6"#,
        completion: [.plugin, .parameter, .value],
        example: .init(console: "set amp gain -6", osc: OSCMessage("/fxhost/set", [.string("amp"), .string("gain"), .float(-6)]),
                       json: #"{"v": 1, "cmd": "set", "node": "amp", "param": "gain", "value": -6}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(3...3, "set NODE PARAM VALUE")
            return .set(node: arguments[0], parameter: arguments[1], value: PatchValueSyntax.parameterValue(arguments[2]))
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(2, extra: 1...1)
            let value: ParameterValue
            switch arguments[2] {
            case .float(let number): value = .number(Double(number))
            case .int(let number): value = .number(Double(number))
            case .string(let text): value = PatchValueSyntax.parameterValue(text)
            }
            return .set(node: names[0], parameter: names[1], value: value)
        },
        decode: { fields throws(ProtocolError) in
            .set(node: try fields.string("node"), parameter: try fields.string("param"), value: try fields.parameterValue("value"))
        },
        encode: { command in
            guard case .set(let node, let parameter, let value) = command else { return nil }
            let json: JSONValue
            switch value {
            case .number(let number): json = .number(number)
            case .toggle(let flag): json = .bool(flag)
            case .label(let label): json = .string(label)
            }
            return ["node": .string(node), "param": .string(parameter), "value": json]
        })

    static let bypass = CommandSpec(
        name: "bypass", words: ["bypass"], syntax: "bypass NODE on|off",
        help: "pass a plugin node's input straight through, or not",
        osc: "/fxhost/bypass", "s:node i:on", json: #""node": "room", "on": true"#,
        completion: [.plugin, .words(["on", "off"])],
        example: .init(console: "bypass room on", osc: OSCMessage("/fxhost/bypass", [.string("room"), .int(1)]),
                       json: #"{"v": 1, "cmd": "bypass", "node": "room", "on": true}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(1...2, "bypass NODE on|off")
            let state = arguments.count == 2 ? arguments[1].lowercased() : "on"
            guard let on = ["on": true, "off": false, "true": true, "false": false, "1": true, "0": false][state] else {
                throw FrontEndError("bypass takes on or off, not `\(arguments[1])`")
            }
            return .bypass(node: arguments[0], on: on)
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(1, extra: 1...1)
            return .bypass(node: names[0], on: try arguments.flag(1))
        },
        decode: { fields throws(ProtocolError) in .bypass(node: try fields.string("node"), on: try fields.bool("on")) },
        encode: { command in
            guard case .bypass(let node, let on) = command else { return nil }
            return ["node": .string(node), "on": .bool(on)]
        })

    static let restore = CommandSpec(
        name: "restore", words: ["restore"], syntax: "restore NODE",
        help: "play again a plugin node a crash left out (bypassed) of the restarted engine",
        osc: "/fxhost/restore", "s:node", json: #""node": "room""#,
        completion: [.plugin],
        example: .init(console: "restore room", osc: OSCMessage("/fxhost/restore", [.string("room")]),
                       json: #"{"v": 1, "cmd": "restore", "node": "room"}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(1...1, "restore NODE")
            return .restore(node: arguments[0])
        },
        osc: { arguments throws(OSCRequestError) in
            .restore(node: try arguments.strings(1)[0])
        },
        decode: { fields throws(ProtocolError) in .restore(node: try fields.string("node")) },
        encode: { command in
            guard case .restore(let node) = command else { return nil }
            return ["node": .string(node)]
        })

    static let preset = CommandSpec(
        name: "preset", words: ["preset"], syntax: "preset NODE NAME",
        help: "apply an LV2 preset by label or URI",
        osc: "/fxhost/preset", "s:node s:preset", json: #""node": "eq", "name": "Bass boost""#,
        completion: [.plugin, .presetLabel],
        example: .init(console: "preset eq Bass boost", osc: OSCMessage("/fxhost/preset", [.string("eq"), .string("Bass boost")]),
                       json: #"{"v": 1, "cmd": "preset", "node": "eq", "name": "Bass boost"}"#),
        console: { arguments throws(FrontEndError) in
            // The label is the rest of the line, spaces and all.
            guard arguments.count >= 2 else { throw FrontEndError("usage: preset NODE NAME") }
            return .preset(node: arguments[0], name: arguments.words.dropFirst().joined(separator: " "))
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(2)
            return .preset(node: names[0], name: names[1])
        },
        decode: { fields throws(ProtocolError) in .preset(node: try fields.string("node"), name: try fields.string("name")) },
        encode: { command in
            guard case .preset(let node, let name) = command else { return nil }
            return ["node": .string(node), "name": .string(name)]
        })

    static let savePreset = CommandSpec(
        name: "preset.save", words: ["preset", "save"], syntax: "preset save NODE NAME",
        help: "save the plugin's state as LV2 preset NAME (~/.lv2/fxhost-NAME.lv2)",
        osc: "/fxhost/preset/save", "s:node s:name", json: #""node": "amp", "name": "Quiet""#,
        completion: [.plugin, .none],
        example: .init(console: "preset save amp Quiet", osc: OSCMessage("/fxhost/preset/save", [.string("amp"), .string("Quiet")]),
                       json: #"{"v": 1, "cmd": "preset.save", "node": "amp", "name": "Quiet"}"#),
        console: { arguments throws(FrontEndError) in
            // `preset save X NAME` wins, as `tap pause` does: a preset of a node
            // named `save` is applied by the node's other name, or with its URI.
            guard arguments.count >= 2 else { throw FrontEndError("usage: preset save NODE NAME") }
            return .savePreset(node: arguments[0], name: arguments.words.dropFirst().joined(separator: " "))
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(2)
            return .savePreset(node: names[0], name: names[1])
        },
        decode: { fields throws(ProtocolError) in .savePreset(node: try fields.string("node"), name: try fields.string("name")) },
        encode: { command in
            guard case .savePreset(let node, let name) = command else { return nil }
            return ["node": .string(node), "name": .string(name)]
        })
}
