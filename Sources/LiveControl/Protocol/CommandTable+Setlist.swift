import HostCore

/// A setlist run's moves (`fxhost run show.yaml`): names only, never paths,
/// so a remote front end can choose among the setlist's patches and no other file.
extension CommandTable {
    static let next = withoutArguments(
        "next", words: ["next"],
        help: "a setlist run: switch to the next patch (the old one's tails ring on for the spillover)",
        osc: "/fxhost/setlist/next", .nextPatch)

    static let previous = withoutArguments(
        "prev", words: ["prev"], aliases: ["previous"],
        help: "a setlist run: switch to the previous patch",
        osc: "/fxhost/setlist/prev", .previousPatch)

    static let load = CommandSpec(
        name: "load", words: ["load"], syntax: "load NAME",
        help: "a setlist run: switch to the patch called NAME",
        osc: "/fxhost/setlist/load", "s:name", json: #""name": "solo" (or "program": 2, as a MIDI program change selects)"#,
        completion: [.patch],
        example: .init(console: "load solo", osc: OSCMessage("/fxhost/setlist/load", [.string("solo")]),
                       json: #"{"v": 1, "cmd": "load", "name": "solo"}"#),
        console: { arguments throws(FrontEndError) in
            try arguments.expect(1...1, "load NAME")
            return .loadPatch(.named(arguments[0]))
        },
        osc: { arguments throws(OSCRequestError) in .loadPatch(.named(try arguments.strings(1)[0])) },
        decode: { fields throws(ProtocolError) in
            if let name = try fields.optionalString("name") { return .loadPatch(.named(name)) }
            let program = try fields.number("program")
            guard program.rounded() == program, (0...127).contains(program) else {
                throw ProtocolError("`load` takes `program` as a whole number from 0 to 127")
            }
            return .loadPatch(.program(Int(program)))
        },
        encode: { command in
            switch command {
            case .loadPatch(.named(let name)): return ["name": .string(name)]
            case .loadPatch(.program(let program)): return ["program": .number(Double(program))]
            default: return nil
            }
        })
}
