import HostCore

extension CommandTable {
    static let connect = CommandSpec(
        name: "connect", words: ["connect"], syntax: "connect FROM TO [GAIN]",
        help: "add a connection (NODE, NODE:N or NODE:symbol; GAIN like -6dB)",
        osc: "/fxhost/connect", "s:from s:to [f:gain-dB]", json: #""from": "vox", "to": "verb", "gainDB": -12"#,
        completion: [.node, .node, .none],
        example: .init(console: "connect vox verb -12dB",
                       osc: OSCMessage("/fxhost/connect", [.string("vox"), .string("verb"), .float(-12)]),
                       json: #"{"v": 1, "cmd": "connect", "from": "vox", "to": "verb", "gainDB": -12}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(2...4, "connect FROM TO [GAIN]")
            // The gain may be one word ("-6dB") or two ("-6 dB").
            let gain = try arguments.count > 2 ? ConsoleArguments.decibels(arguments.words[2...].joined()) : 0
            return .connect(from: try ConsoleArguments.port(arguments[0]), to: try ConsoleArguments.port(arguments[1]),
                            gainDecibels: gain)
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(2, extra: 0...1)
            let gain = arguments.count == 3 ? try arguments.number(2) : 0
            return .connect(from: try arguments.port(names[0]), to: try arguments.port(names[1]), gainDecibels: gain)
        },
        decode: { fields throws(ProtocolError) in
            .connect(from: try fields.port("from"), to: try fields.port("to"), gainDecibels: try fields.optionalNumber("gainDB") ?? 0)
        },
        encode: { command in
            guard case .connect(let from, let to, let gain) = command else { return nil }
            return ["from": .string(from.description), "to": .string(to.description), "gainDB": .number(gain)]
        })

    static let disconnect = CommandSpec(
        name: "disconnect", words: ["disconnect"], syntax: "disconnect FROM TO",
        help: "remove connections between two nodes (or ports)",
        osc: "/fxhost/disconnect", "s:from s:to", json: #""from": "vox", "to": "verb""#,
        completion: [.node, .node],
        example: .init(console: "disconnect vox verb", osc: OSCMessage("/fxhost/disconnect", [.string("vox"), .string("verb")]),
                       json: #"{"v": 1, "cmd": "disconnect", "from": "vox", "to": "verb"}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(2...2, "disconnect FROM TO")
            return .disconnect(from: try ConsoleArguments.port(arguments[0]), to: try ConsoleArguments.port(arguments[1]))
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(2)
            return .disconnect(from: try arguments.port(names[0]), to: try arguments.port(names[1]))
        },
        decode: { fields throws(ProtocolError) in .disconnect(from: try fields.port("from"), to: try fields.port("to")) },
        encode: { command in
            guard case .disconnect(let from, let to) = command else { return nil }
            return ["from": .string(from.description), "to": .string(to.description)]
        })
}
