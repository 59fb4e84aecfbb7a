import HostCore
import JackIO

/// One line typed on the console while `fxhost run` plays, parsed: the
/// console's words for a `ControlCommand` (the dispatcher's, shared with
/// every front end), or what only the console has.
enum ConsoleCommand: Equatable {
    case control(ControlCommand)
    /// `status --json`: the dispatcher's `status`, printed as JSON.
    case statusAsJSON
    case help

    static let usage = """
        commands:
          set NODE PARAM VALUE      change a plugin parameter (checked against its range)
          bypass NODE on|off        pass a plugin node's input straight through, or not
          preset NODE NAME          apply an LV2 preset by label or URI
          preset save NODE NAME     save the plugin's state as LV2 preset NAME (~/.lv2/fxhost-NAME.lv2)
          tap NODE[:PORT] FILE      start recording a node's output, or one channel (N) or port (symbol)
          tap pause NODE[:PORT]     pause recording; the file continues where it left off on resume
          tap resume NODE[:PORT]    record again after a pause
          untap NODE[:PORT]         stop recording (every tap on the node, or the one on PORT)
          connect FROM TO [GAIN]    add a connection (NODE, NODE:N or NODE:symbol; GAIN like -6dB)
          disconnect FROM TO        remove connections between two nodes (or ports)
          bounce FILE [--from S] [--to S]
                                    render the file sources to FILE through JACK freewheel
                                    (a range of the timeline in seconds), then play on;
                                    the outputs are silent meanwhile and live plugins keep their state
          bounce cancel             stop a bounce under way (no file is kept)
          learn NODE PARAM          map the next MIDI controller that moves to PARAM (or `bypass`)
          unlearn NODE PARAM        remove the MIDI mappings of PARAM
          map                       list the MIDI mappings and scenes
          scene NAME                switch to a scene: all its values and bypasses in one block
          save [FILE]               write the running state as a patch: over the loaded file (its comments kept), or to FILE
          tempo BPM                 the tempo plugins that take the host's time follow (unless JACK has a timebase master)
          transport start|stop      start or stop that transport (JACK's, when a timebase master runs)
          status [--json]           levels, DSP load, xruns, taps (time, recording or paused), bounce progress
          help                      this list
          quit                      finalise every tap and exit
        """

    static let names = ["set", "bypass", "preset", "tap", "untap", "connect", "disconnect", "bounce", "save", "status", "help",
                        "quit", "learn", "unlearn", "map", "scene", "tempo", "transport"]

    /// nil for a blank line or a comment.
    static func parse(_ line: String) throws(CommandLineError) -> ConsoleCommand? {
        let words = try ConsoleWords.split(line)
        guard let name = words.first?.lowercased() else { return nil }
        if name.hasPrefix("#") { return nil }
        let arguments = Array(words.dropFirst())
        func expect(_ count: ClosedRange<Int>, _ form: String) throws(CommandLineError) {
            guard count.contains(arguments.count) else { throw CommandLineError("usage: \(form)") }
        }
        switch name {
        case "set":
            try expect(3...3, "set NODE PARAM VALUE")
            return .control(.set(node: arguments[0], parameter: arguments[1], value: parameterValue(arguments[2])))
        case "bypass":
            try expect(1...2, "bypass NODE on|off")
            let state = arguments.count == 2 ? arguments[1].lowercased() : "on"
            guard let on = ["on": true, "off": false, "true": true, "false": false, "1": true, "0": false][state] else {
                throw CommandLineError("bypass takes on or off, not `\(arguments[1])`")
            }
            return .control(.bypass(node: arguments[0], on: on))
        case "preset":
            // `preset save X NAME` wins, as `tap pause` does: a preset of a node
            // named `save` is applied by the node's other name, or with its URI.
            if arguments.first?.lowercased() == "save" {
                guard arguments.count >= 3 else { throw CommandLineError("usage: preset save NODE NAME") }
                return .control(.savePreset(node: arguments[1], name: arguments.dropFirst(2).joined(separator: " ")))
            }
            guard arguments.count >= 2 else { throw CommandLineError("usage: preset NODE NAME") }
            return .control(.preset(node: arguments[0], name: arguments.dropFirst().joined(separator: " ")))
        case "tap":
            // `tap pause X` and `tap resume X` win, as `bounce cancel` does:
            // a node named `pause` or `resume` is tapped by port (`pause:1`).
            if let action = arguments.first?.lowercased(), action == "pause" || action == "resume" {
                guard arguments.count == 2 else { throw CommandLineError("usage: tap \(action) NODE[:PORT]") }
                let reference = try port(arguments[1])
                return .control(action == "pause" ? .pauseTap(reference) : .resumeTap(reference))
            }
            try expect(2...2, "tap NODE[:PORT] FILE")
            return .control(.tap(try port(arguments[0]), file: arguments[1]))
        case "untap":
            try expect(1...1, "untap NODE[:PORT]")
            return .control(.untap(try port(arguments[0])))
        case "connect":
            try expect(2...4, "connect FROM TO [GAIN]")
            // The gain may be one word ("-6dB") or two ("-6 dB").
            let gain = try arguments.count > 2 ? decibels(arguments[2...].joined()) : 0
            return .control(.connect(from: try port(arguments[0]), to: try port(arguments[1]), gainDecibels: gain))
        case "disconnect":
            try expect(2...2, "disconnect FROM TO")
            return .control(.disconnect(from: try port(arguments[0]), to: try port(arguments[1])))
        case "bounce":
            return .control(try bounce(arguments))
        case "save":
            try expect(0...1, "save [FILE]")
            return .control(.save(file: arguments.first))
        case "status":
            guard arguments.isEmpty || arguments == ["--json"] else { throw CommandLineError("usage: status [--json]") }
            return arguments.isEmpty ? .control(.status) : .statusAsJSON
        case "learn", "unlearn":
            let (node, parameter) = try nodeAndParameter(arguments, usage: "\(name) NODE PARAM")
            return .control(name == "learn" ? .learn(node: node, parameter: parameter) : .unlearn(node: node, parameter: parameter))
        case "map":
            try expect(0...0, "map")
            return .control(.mappings)
        case "scene":
            try expect(1...1, "scene NAME")
            return .control(.scene(arguments[0]))
        case "tempo":
            try expect(1...1, "tempo BPM")
            guard let beatsPerMinute = PatchValueSyntax.number(arguments[0]) else {
                throw CommandLineError("tempo takes beats per minute such as 120, not `\(arguments[0])`")
            }
            return .control(.tempo(beatsPerMinute))
        case "transport":
            try expect(1...1, "transport start|stop")
            guard let rolling = ["start": true, "stop": false, "play": true][arguments[0].lowercased()] else {
                throw CommandLineError("transport takes start or stop, not `\(arguments[0])`")
            }
            return .control(.transport(rolling: rolling))
        case "help", "?":
            return .help
        case "quit", "exit":
            return .control(.quit)
        default:
            let hint = Suggestion.didYouMean(name, in: names).map { " (\($0))" } ?? "; type `help` for the list"
            throw CommandLineError("there is no command `\(name)`\(hint)")
        }
    }

    /// `NODE PARAM` or `NODE:PARAM`.
    static func nodeAndParameter(_ arguments: [String], usage: String) throws(CommandLineError) -> (String, String) {
        if arguments.count == 2 { return (arguments[0], arguments[1]) }
        if arguments.count == 1, let colon = arguments[0].firstIndex(of: ":"),
           colon != arguments[0].startIndex, colon != arguments[0].index(before: arguments[0].endIndex) {
            return (String(arguments[0][..<colon]), String(arguments[0][arguments[0].index(after: colon)...]))
        }
        throw CommandLineError("usage: \(usage)")
    }

    /// `bounce FILE [--from S] [--to S]` or `bounce cancel`.
    static func bounce(_ arguments: [String]) throws(CommandLineError) -> ControlCommand {
        let usage = "usage: bounce FILE [--from S] [--to S], or bounce cancel"
        if arguments.map({ $0.lowercased() }) == ["cancel"] { return .cancelBounce }
        var file: String?, from: Double?, to: Double?
        var rest = arguments[...]
        while let word = rest.popFirst() {
            switch word {
            case "--from", "--to":
                guard let text = rest.popFirst() else { throw CommandLineError("\(word) takes a time in seconds, such as \(word) 12.5") }
                let seconds: Double
                do {
                    seconds = try TimeOption.seconds(text, option: word)
                } catch {
                    throw CommandLineError("\(word) takes a time in seconds such as 12.5 or 500ms, not `\(text)`")
                }
                if word == "--from" { from = seconds } else { to = seconds }
            default:
                guard file == nil, !word.hasPrefix("--") else { throw CommandLineError(usage) }
                file = word
            }
        }
        guard let file else { throw CommandLineError(usage) }
        if let to, to <= (from ?? 0) {
            throw CommandLineError("--to (\(to) s) must come after --from (\(from ?? 0) s)")
        }
        return .bounce(file: file, from: from ?? 0, to: to)
    }

    /// A number, `true`/`false`, or an option label: the patch's own reading.
    static func parameterValue(_ text: String) -> ParameterValue { PatchValueSyntax.parameterValue(text) }

    /// `node`, `node:N` or `node:symbol`.
    static func port(_ text: String) throws(CommandLineError) -> PortReference {
        do {
            return try PortReference(parsing: text)
        } catch {
            throw CommandLineError(error.message)
        }
    }

    /// "-6", "-6dB", "-6 dB".
    static func decibels(_ text: String) throws(CommandLineError) -> Double {
        guard let value = PatchValueSyntax.decibels(text) else {
            throw CommandLineError("a gain is a number of decibels such as -6dB, not `\(text)`")
        }
        return value
    }
}

/// Splits a line into words; double quotes group words with spaces.
enum ConsoleWords {
    static func split(_ line: String) throws(CommandLineError) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false, inWord = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if character.isWhitespace && !quoted {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard !quoted else { throw CommandLineError("a quote is not closed") }
        if inWord { words.append(current) }
        return words
    }
}
