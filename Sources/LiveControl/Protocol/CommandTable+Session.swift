import HostCore

extension CommandTable {
    static let save = CommandSpec(
        name: "save", words: ["save"], syntax: "save [FILE [--force]]",
        help: "write the running state as a patch: over the loaded file (its comments kept), or to FILE (an existing FILE only with --force)",
        osc: "/fxhost/save", "[s:file [i:force]]", json: #""file": "copy.yaml" (optional), "force": true (optional)"#,
        completion: [.file, .options(["--force"])],
        example: .init(console: "save copy.yaml", osc: OSCMessage("/fxhost/save", [.string("copy.yaml")]),
                       json: #"{"v": 1, "cmd": "save", "file": "copy.yaml"}"#),
        console: { arguments throws(FrontEndError) in
            let usage = "save [FILE [--force]]"
            let force = arguments.words.contains("--force")
            let names = arguments.words.filter { $0 != "--force" }
            guard names.count <= 1, !(force && names.isEmpty), !names.contains(where: { $0.hasPrefix("--") }) else {
                throw FrontEndError("usage: \(usage)")
            }
            return .save(file: names.first, force: force)
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(arguments.count == 0 ? 0 : 1, extra: 0...1)
            let force = arguments.count > 1 ? try arguments.flag(1) : false
            return .save(file: names.first, force: force)
        },
        decode: { fields throws(ProtocolError) in
            .save(file: try fields.optionalString("file"), force: try fields.optionalBool("force") ?? false)
        },
        encode: { command in
            guard case .save(let file, let force) = command else { return nil }
            var fields: [String: JSONValue] = file.map { ["file": .string($0)] } ?? [:]
            if force { fields["force"] = .bool(true) }
            return fields
        })

    static let reload = CommandSpec(
        name: "reload", words: ["reload"], syntax: "reload",
        help: "read the patch file again and apply what changed (as --watch does on each save)",
        osc: "/fxhost/reload", "no arguments", json: "",
        example: .init(console: "reload", osc: OSCMessage("/fxhost/reload"), json: #"{"v": 1, "cmd": "reload"}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(0...0, "reload")
            return .reload(text: nil)
        },
        osc: { arguments throws(OSCRequestError) in
            _ = try arguments.strings(0)
            return .reload(text: nil)
        },
        decode: { fields throws(ProtocolError) in .reload(text: try fields.optionalString("text")) },
        encode: { command in
            guard case .reload(let text) = command else { return nil }
            return text.map { ["text": .string($0)] } ?? [:]
        })

    static let tempo = CommandSpec(
        name: "tempo", words: ["tempo"], syntax: "tempo BPM",
        help: "the tempo plugins that take the host's time follow (unless JACK has a timebase master)",
        osc: "/fxhost/tempo", "f:beats-per-minute", json: #""bpm": 140"#,
        completion: [.none],
        example: .init(console: "tempo 140", osc: OSCMessage("/fxhost/tempo", [.float(140)]),
                       json: #"{"v": 1, "cmd": "tempo", "bpm": 140}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(1...1, "tempo BPM")
            guard let beatsPerMinute = PatchValueSyntax.number(arguments[0]) else {
                throw FrontEndError("tempo takes beats per minute such as 120, not `\(arguments[0])`")
            }
            return .tempo(beatsPerMinute)
        },
        osc: { arguments throws(OSCRequestError) in
            _ = try arguments.strings(0, extra: 1...1)
            return .tempo(try arguments.number(0))
        },
        decode: { fields throws(ProtocolError) in .tempo(try fields.number("bpm")) },
        encode: { command in
            guard case .tempo(let beatsPerMinute) = command else { return nil }
            return ["bpm": .number(beatsPerMinute)]
        })

    // `tempo tap` wins over `tempo BPM`, as `tap pause` does over a tap of node `pause`.
    static let tempoTap = withoutArguments(
        "tempo.tap", words: ["tempo", "tap"],
        help: "tap tempo: from the second tap, the tempo is the mean of the last 4 intervals (a pause over 2 s starts again)",
        osc: "/fxhost/tempo/tap", .tempoTap)

    static let transport = CommandSpec(
        name: "transport", words: ["transport"], syntax: "transport start|stop",
        help: "start or stop that transport (JACK's, when a timebase master runs)",
        osc: "/fxhost/transport", "i:rolling", json: #""rolling": true"#,
        completion: [.words(["start", "stop"])],
        example: .init(console: "transport stop", osc: OSCMessage("/fxhost/transport", [.int(0)]),
                       json: #"{"v": 1, "cmd": "transport", "rolling": false}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(1...1, "transport start|stop")
            guard let rolling = ["start": true, "stop": false, "play": true][arguments[0].lowercased()] else {
                throw FrontEndError("transport takes start or stop, not `\(arguments[0])`")
            }
            return .transport(rolling: rolling)
        },
        osc: { arguments throws(OSCRequestError) in
            _ = try arguments.strings(0, extra: 1...1)
            return .transport(rolling: try arguments.flag(0))
        },
        decode: { fields throws(ProtocolError) in .transport(rolling: try fields.bool("rolling")) },
        encode: { command in
            guard case .transport(let rolling) = command else { return nil }
            return ["rolling": .bool(rolling)]
        })

    static let status = withoutArguments(
        "status", words: ["status"], syntax: "status [--json]",
        help: "levels, DSP load, xruns, taps (time, recording or paused), bounce progress",
        osc: "/fxhost/status", isQuery: true, .status)

    static let state = CommandSpec(
        name: "state", words: ["show"], syntax: "show [NODE] [--json]",
        help: "the graph as text, or a node's parameters with their values, ranges and units",
        osc: "/fxhost/state", "[s:node]", json: #""node": "amp" (optional: the whole session without it)"#,
        completion: [.node],
        isQuery: true,
        example: .init(console: "show amp", osc: OSCMessage("/fxhost/state", [.string("amp")]),
                       json: #"{"v": 1, "cmd": "state", "node": "amp"}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(0...1, "show [NODE] [--json]")
            return .state(node: arguments.words.first)
        },
        osc: { arguments throws(OSCRequestError) in
            let names = try arguments.strings(arguments.count == 0 ? 0 : 1)
            return .state(node: names.first)
        },
        decode: { fields throws(ProtocolError) in .state(node: try fields.optionalString("node")) },
        encode: { command in
            guard case .state(let node) = command else { return nil }
            return node.map { ["node": .string($0)] } ?? [:]
        })

    static let quit = withoutArguments(
        "quit", words: ["quit"], aliases: ["exit"], help: "finalise every tap and exit", osc: "/fxhost/quit", .quit)
}
