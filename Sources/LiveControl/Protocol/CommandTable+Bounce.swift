import HostCore

extension CommandTable {
    static let bounceUsage = "usage: bounce FILE [--from S] [--to S] [--force], or bounce cancel"

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
        name: "bounce", words: ["bounce"], syntax: "bounce FILE [--from S] [--to S] [--force]",
        help: """
            render the file sources to FILE through JACK freewheel
            (a range of the timeline in seconds), then play on;
            the outputs are silent meanwhile and live plugins keep their state;
            an existing FILE is replaced only with --force
            """,
        // The force flag is the string `force`, last: a number there would read as a time.
        osc: "/fxhost/bounce", "s:file [f:from-seconds [f:to-seconds]] [s:force]",
        json: #""file": "mix.wav", "from": 30, "to": 45, "force": true (optional)"#,
        completion: [.file, .options(["--from", "--to", "--force"])],
        example: .init(console: "bounce mix.wav --from 30 --to 45",
                       osc: OSCMessage("/fxhost/bounce", [.string("mix.wav"), .float(30), .float(45)]),
                       json: #"{"v": 1, "cmd": "bounce", "file": "mix.wav", "from": 30, "to": 45}"#),
        console: { arguments throws(FrontEndError) in
            var file: String?, from: Double?, to: Double?, force = false
            var rest = arguments.words[...]
            while let word = rest.popFirst() {
                switch word {
                case "--force":
                    force = true
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
            return .bounce(file: file, from: from ?? 0, to: to, force: force)
        },
        osc: { arguments throws(OSCRequestError) in
            var count = arguments.count
            let force: Bool
            if count > 1, case .string(let last) = arguments[count - 1] {
                guard last == "force" else { throw arguments.expected() }
                force = true
                count -= 1
            } else {
                force = false
            }
            guard (1...3).contains(count), case .string(let file) = arguments[0] else { throw arguments.expected() }
            let from = count > 1 ? try arguments.number(1) : 0
            let to = count > 2 ? try arguments.number(2) : nil
            if let problem = bounceRangeProblem(from: from, to: to) { throw .wrongArguments("/fxhost/bounce: \(problem)") }
            return .bounce(file: file, from: from, to: to, force: force)
        },
        decode: { fields throws(ProtocolError) in
            let file = try fields.string("file")
            let from = try fields.optionalNumber("from") ?? 0
            let to = try fields.optionalNumber("to")
            let force = try fields.optionalBool("force") ?? false
            if let problem = bounceRangeProblem(from: from, to: to) { throw ProtocolError("`bounce`: \(problem)") }
            return .bounce(file: file, from: from, to: to, force: force)
        },
        encode: { command in
            guard case .bounce(let file, let from, let to, let force) = command else { return nil }
            var fields: [String: JSONValue] = ["file": .string(file), "from": .number(from)]
            if let to { fields["to"] = .number(to) }
            if force { fields["force"] = .bool(true) }
            return fields
        })

    // `bounce cancel x` is neither a cancel nor a bounce to one file.
    static let cancelBounce = withoutArguments(
        "bounce.cancel", words: ["bounce", "cancel"], help: "stop a bounce under way (no file is kept)",
        osc: "/fxhost/bounce/cancel", usage: bounceUsage, .cancelBounce)
}
