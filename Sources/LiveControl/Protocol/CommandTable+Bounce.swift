import HostCore

extension CommandTable {
    static let bounceUsage = "usage: bounce FILE [--from S] [--to S], or bounce cancel"

    /// The one check of a bounce's range from outside, for every form: nil
    /// when it may be rendered, else what is wrong. The start is 0 or later,
    /// the end after it, both within the longest range a render takes.
    static func bounceRangeProblem(from: Double, to: Double?) -> String? {
        let longest = RenderOptions.longestRangeSeconds
        guard from.isFinite, from >= 0, (to ?? .infinity) > from else {
            return "the end must come after the start, and the start may not be negative"
        }
        guard from <= longest, (to ?? 0) <= longest else {
            return "a bounce's range lies within \(NumberText.format(longest)) s (24 hours), not "
                + NumberText.format(max(from, to ?? 0)) + " s"
        }
        return nil
    }

    static let bounce = CommandSpec(
        name: "bounce", words: ["bounce"], syntax: "bounce FILE [--from S] [--to S]",
        help: """
            render the file sources to FILE through JACK freewheel
            (a range of the timeline in seconds), then play on;
            the outputs are silent meanwhile and live plugins keep their state
            """,
        osc: "/fxhost/bounce", "s:file [f:from-seconds [f:to-seconds]]", json: #""file": "mix.wav", "from": 30, "to": 45"#,
        completion: [.file, .options(["--from", "--to"])],
        example: .init(console: "bounce mix.wav --from 30 --to 45",
                       osc: OSCMessage("/fxhost/bounce", [.string("mix.wav"), .float(30), .float(45)]),
                       json: #"{"v": 1, "cmd": "bounce", "file": "mix.wav", "from": 30, "to": 45}"#),
        console: { arguments throws(FrontEndError) in
            var file: String?, from: Double?, to: Double?
            var rest = arguments.words[...]
            while let word = rest.popFirst() {
                switch word {
                case "--from", "--to":
                    guard let text = rest.popFirst() else { throw FrontEndError("\(word) takes a time in seconds, such as \(word) 12.5") }
                    guard let seconds = PatchValueSyntax.seconds(text), seconds >= 0 else {
                        throw FrontEndError("\(word) takes a time in seconds such as 12.5 or 500ms, not `\(text)`")
                    }
                    if word == "--from" { from = seconds } else { to = seconds }
                default:
                    guard file == nil, !word.hasPrefix("--") else { throw FrontEndError(bounceUsage) }
                    file = word
                }
            }
            guard let file else { throw FrontEndError(bounceUsage) }
            if let to, to <= (from ?? 0) {
                throw FrontEndError("--to (\(to) s) must come after --from (\(from ?? 0) s)")
            }
            if let problem = bounceRangeProblem(from: from ?? 0, to: to) { throw FrontEndError(problem) }
            return .bounce(file: file, from: from ?? 0, to: to)
        },
        osc: { arguments throws(OSCRequestError) in
            let file = try arguments.strings(1, extra: 0...2)[0]
            let from = arguments.count > 1 ? try arguments.number(1) : 0
            let to = arguments.count > 2 ? try arguments.number(2) : nil
            if let problem = bounceRangeProblem(from: from, to: to) { throw .wrongArguments("/fxhost/bounce: \(problem)") }
            return .bounce(file: file, from: from, to: to)
        },
        decode: { fields throws(ProtocolError) in
            let file = try fields.string("file")
            let from = try fields.optionalNumber("from") ?? 0
            let to = try fields.optionalNumber("to")
            if let problem = bounceRangeProblem(from: from, to: to) { throw ProtocolError("`bounce`: \(problem)") }
            return .bounce(file: file, from: from, to: to)
        },
        encode: { command in
            guard case .bounce(let file, let from, let to) = command else { return nil }
            var fields: [String: JSONValue] = ["file": .string(file), "from": .number(from)]
            if let to { fields["to"] = .number(to) }
            return fields
        })

    // `bounce cancel x` is neither a cancel nor a bounce to one file.
    static let cancelBounce = withoutArguments(
        "bounce.cancel", words: ["bounce", "cancel"], help: "stop a bounce under way (no file is kept)",
        osc: "/fxhost/bounce/cancel", usage: bounceUsage, .cancelBounce)
}
