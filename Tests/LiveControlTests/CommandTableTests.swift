import HostCore
import JackIO
@testable import LiveControl
import XCTest

/// The command table is the one place a command is declared: every command
/// of the protocol has an entry, and each entry's console, OSC and JSON
/// forms read as the same command, so no command exists in one front end only.
final class CommandTableTests: XCTestCase {
    /// One of every `ControlCommand` case. The switch in `caseName` has no
    /// default: a new case does not compile until it is listed here, and
    /// then this test fails until the table has an entry for it.
    private static let everyCommand: [ControlCommand] = [
        .set(node: "amp", parameter: "gain", value: .number(-6)), .bypass(node: "room", on: true),
        .preset(node: "eq", name: "Bass boost"), .savePreset(node: "amp", name: "Quiet"),
        .tap(PortReference(node: "drive"), file: "take.flac"), .untap(PortReference(node: "drive")),
        .pauseTap(PortReference(node: "drive")), .resumeTap(PortReference(node: "drive")),
        .connect(from: PortReference(node: "vox"), to: PortReference(node: "verb"), gainDecibels: -12),
        .disconnect(from: PortReference(node: "vox"), to: PortReference(node: "verb")),
        .bounce(file: "mix.wav", from: 30, to: 45), .cancelBounce,
        .learn(node: "amp", parameter: "gain"), .unlearn(node: "amp", parameter: "gain"), .mappings, .scene("lead"), .feedback,
        .save(file: "copy.yaml"), .reload(text: nil), .tempo(140), .tempoTap, .transport(rolling: false),
        .status, .state(node: "amp"), .quit, .restore(node: "room"), .nextPatch, .previousPatch, .loadPatch(.named("solo")),
    ]

    private static func caseName(_ command: ControlCommand) -> String {
        switch command {
        case .set: "set"
        case .bypass: "bypass"
        case .preset: "preset"
        case .savePreset: "savePreset"
        case .tap: "tap"
        case .untap: "untap"
        case .pauseTap: "pauseTap"
        case .resumeTap: "resumeTap"
        case .connect: "connect"
        case .disconnect: "disconnect"
        case .bounce: "bounce"
        case .cancelBounce: "cancelBounce"
        case .learn: "learn"
        case .unlearn: "unlearn"
        case .mappings: "mappings"
        case .scene: "scene"
        case .feedback: "feedback"
        case .save: "save"
        case .reload: "reload"
        case .tempo: "tempo"
        case .tempoTap: "tempoTap"
        case .transport: "transport"
        case .status: "status"
        case .state: "state"
        case .quit: "quit"
        case .restore: "restore"
        case .nextPatch: "nextPatch"
        case .previousPatch: "previousPatch"
        case .loadPatch: "loadPatch"
        }
    }

    func testEveryCommandHasExactlyOneEntry() {
        XCTAssertEqual(Set(Self.everyCommand.map(Self.caseName)).count, Self.everyCommand.count, "one sample per case")
        for command in Self.everyCommand {
            let specs = CommandTable.all.filter { $0.encode(command) != nil }
            XCTAssertEqual(specs.count, 1, "\(Self.caseName(command)) is declared by \(specs.map(\.name))")
        }
        XCTAssertEqual(CommandTable.all.count, Self.everyCommand.count, "an entry no command uses")
    }

    func testNamesAddressesAndWordsAreUnique() {
        let specs = CommandTable.all
        XCTAssertEqual(Set(specs.map(\.name)).count, specs.count, "JSON names")
        XCTAssertEqual(Set(specs.map(\.oscAddress)).count, specs.count, "OSC addresses")
        XCTAssertEqual(Set(specs.map(\.words)).count, specs.count, "console words")
        for spec in specs {
            XCTAssertTrue(spec.oscAddress.hasPrefix("/fxhost/"), spec.oscAddress)
            XCTAssertFalse(spec.help.isEmpty, spec.name)
            XCTAssertTrue(spec.syntax.lowercased().hasPrefix(spec.words.joined(separator: " ")), spec.syntax)
        }
    }

    /// Each entry's example, in the console's, OSC's and JSON's forms, is one command.
    func testEachFrontEndReadsTheSameCommandFromItsOwnForm() throws {
        for spec in CommandTable.all {
            let example = spec.example
            guard case .control(let fromConsole, _)? = try ConsoleCommand.parse(example.console) else {
                return XCTFail("`\(example.console)` is not a command")
            }
            guard case .control(let fromOSC) = try OSCRequest(example.osc) else {
                return XCTFail("\(example.osc.address) is not a command")
            }
            let fromJSON = try ControlProtocol.command(fromJSON: example.json)
            XCTAssertEqual(fromConsole, fromOSC, "\(spec.name): console and OSC")
            XCTAssertEqual(fromConsole, fromJSON, "\(spec.name): console and JSON")
            XCTAssertEqual(CommandTable.spec(of: fromConsole).name, spec.name)
            // Written back as JSON, it reads as itself.
            let written = ControlProtocol.json(for: fromJSON).text
            XCTAssertEqual(try ControlProtocol.command(fromJSON: written), fromJSON, written)
            // The console line, wrapped as JSON, is the same command too.
            let line = #"{"v": 1, "line": "\#(example.console)"}"#
            XCTAssertEqual(try ControlProtocol.command(fromJSON: line), fromConsole, line)
        }
    }

    /// The console's help is made from the table: every entry's syntax, and
    /// every line the console printed before the table existed (copied from
    /// that release's text), so no command or word of help was lost.
    func testHelpListsEveryCommandAndKeepsTheEarlierLines() {
        let usage = ConsoleCommand.usage
        for spec in CommandTable.all { XCTAssertTrue(usage.contains("  " + spec.syntax), spec.syntax) }
        let earlier = [
            "  set NODE PARAM VALUE      change a plugin parameter (checked against its range) or message parameter (a file: set cab ir cab.wav)",
            "  bypass NODE on|off        pass a plugin node's input straight through, or not",
            "  preset NODE NAME          apply an LV2 preset by label or URI",
            "  preset save NODE NAME     save the plugin's state as LV2 preset NAME (~/.lv2/fxhost-NAME.lv2)",
            "  tap NODE[:PORT] FILE      start recording a node's output, or one channel (N) or port (symbol)",
            "  tap pause NODE[:PORT]     pause recording; the file continues where it left off on resume",
            "  tap resume NODE[:PORT]    record again after a pause",
            "  untap NODE[:PORT]         stop recording (every tap on the node, or the one on PORT)",
            "  connect FROM TO [GAIN]    add a connection (NODE, NODE:N or NODE:symbol; GAIN like -6dB)",
            "  disconnect FROM TO        remove connections between two nodes (or ports)",
            "  bounce FILE [--from S] [--to S] [--force]",
            "                            render the file sources to FILE through JACK freewheel",
            "                            (a range of the timeline in seconds), then play on;",
            "                            the outputs are silent meanwhile and live plugins keep their state;",
            "                            an existing FILE is replaced only with --force",
            "  bounce cancel             stop a bounce under way (no file is kept)",
            "  learn NODE PARAM          map the next MIDI controller that moves to PARAM (or `bypass`)",
            "  unlearn NODE PARAM        remove the MIDI mappings of PARAM",
            "  map                       list the MIDI mappings and scenes",
            "  scene NAME [--glide TIME] switch to a scene: all its values and bypasses in one block",
            "  save [FILE [--force]]     write the running state as a patch: over the loaded file (its comments kept), or to FILE (an existing FILE only with --force)",
            "  tempo BPM                 the tempo plugins that take the host's time follow (unless JACK has a timebase master)",
            "  transport start|stop      start or stop that transport (JACK's, when a timebase master runs)",
            "  status [--json]           levels, DSP load, xruns, taps (time, recording or paused), bounce progress",
            "  help                      this list",
            "  quit                      finalise every tap and exit",
        ]
        let lines = usage.split(separator: "\n").map(String.init)
        for line in earlier { XCTAssertTrue(lines.contains(line), "lost from help: \(line)") }
    }

    func testOSCAnswersEveryAddressOfTheTable() throws {
        let addresses = Set(OSCRequest.addresses.map(\.address))
        for spec in CommandTable.all { XCTAssertTrue(addresses.contains(spec.oscAddress), spec.oscAddress) }
        XCTAssertThrowsError(try OSCRequest(OSCMessage("/fxhost/nonsense"))) { error in
            XCTAssertTrue("\(error)".hasPrefix("unknown OSC address `/fxhost/nonsense`; fxhost answers /fxhost/set, "), "\(error)")
        }
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/json", [.string(#"{"v": 1, "cmd": "status"}"#)])),
                       .json(#"{"v": 1, "cmd": "status"}"#))
    }

    func testConsoleSubcommandWordsWinAndQuestionsTakeJSON() throws {
        XCTAssertEqual(try ConsoleCommand.parse("tap pause drive"), .control(.pauseTap(PortReference(node: "drive")), answer: .text))
        XCTAssertEqual(try ConsoleCommand.parse("TAP Resume drive:1"),
                       .control(.resumeTap(PortReference(node: "drive", port: .channel(1))), answer: .text))
        XCTAssertEqual(try ConsoleCommand.parse("tap pauses take.wav"),
                       .control(.tap(PortReference(node: "pauses"), file: "take.wav"), answer: .text),
                       "only the word itself chooses the subcommand")
        XCTAssertEqual(try ConsoleCommand.parse("status --json"), .control(.status, answer: .json))
        XCTAssertEqual(try ConsoleCommand.parse("show amp --json"), .control(.state(node: "amp"), answer: .json))
        XCTAssertEqual(try ConsoleCommand.parse("show"), .control(.state(node: nil), answer: .text))
        XCTAssertEqual(try ConsoleCommand.parse("exit"), .control(.quit, answer: .text))
        func refusal(_ line: String) -> String {
            do {
                _ = try ConsoleCommand.parse(line)
                return "accepted"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(refusal("bounce cancel now"), "usage: bounce FILE [--from S] [--to S] [--force], or bounce cancel")
        XCTAssertEqual(refusal("set amp gain"), "usage: set NODE PARAM VALUE")
        XCTAssertEqual(refusal("stauts"), "there is no command `stauts` (did you mean `status`?)")
        XCTAssertEqual(refusal("quit now"), "usage: quit")
        XCTAssertEqual(refusal("map extra --json"), "usage: map")
        XCTAssertEqual(try ConsoleCommand.parse("map --json"), .control(.mappings, answer: .json))
        XCTAssertEqual(refusal("transport go"), "transport takes start or stop, not `go`")
        // A time no render could reach is refused before anything converts it (it trapped).
        XCTAssertEqual(refusal("bounce x.wav --from 1e308"), "a bounce's range lies within 86400 s (24 hours), not 1e+308 s")
        XCTAssertEqual(refusal("bounce x.wav --to 90000"), "a bounce's range lies within 86400 s (24 hours), not 90000 s")
        XCTAssertThrowsError(try OSCRequest(OSCMessage("/fxhost/bounce", [.string("x.wav"), .float(1e30)]))) { error in
            XCTAssertTrue("\(error)".hasPrefix("/fxhost/bounce: a bounce's range lies within 86400 s (24 hours)"), "\(error)")
        }
        XCTAssertThrowsError(try ControlProtocol.command(fromJSON: #"{"v": 1, "cmd": "bounce", "file": "x.wav", "from": 1e300}"#)) {
            XCTAssertTrue("\($0)".hasPrefix("`bounce`: a bounce's range lies within 86400 s (24 hours)"), "\($0)")
        }
    }

    /// A JSON command that cannot be read is refused in one sentence naming what was wrong.
    func testJSONRefusalsNameTheField() {
        func refusal(_ text: String) -> String {
            do {
                return "accepted \(try ControlProtocol.command(fromJSON: text))"
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(refusal("set amp gain -6"), #"a command is a JSON object such as {"v": 1, "cmd": "status"}"#)
        XCTAssertEqual(refusal(#"{"cmd": "status"}"#), #"a command says which protocol it speaks: "v": 1"#)
        XCTAssertEqual(refusal(#"{"v": 2, "cmd": "status"}"#), #"a command says which protocol it speaks: "v": 1"#)
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "stauts"}"#), "there is no command `stauts` (did you mean `status`?)")
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "set", "node": "amp", "param": "gain"}"#),
                       "`set` takes `value` as a number, true or false, or a label")
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "tempo", "bpm": "fast"}"#), "`tempo` takes `bpm` as a number")
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "bypass", "node": "amp", "on": true, "of": 1}"#),
                       #"`bypass` has no field `of`; it takes "node": "room", "on": true"#)
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "tap", "at": "drive:", "file": "x.wav"}"#).hasPrefix("`tap` `at`: "), true)
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "bounce", "file": "x.wav", "from": 5, "to": 2}"#),
                       "`bounce`: the end must come after the start, and the start may not be negative")
        XCTAssertEqual(refusal(#"{"v": 1, "line": "nonsense"}"#), "there is no command `nonsense`; type `help` for the list")
        XCTAssertEqual(refusal(#"{"v": 1, "line": "help"}"#), "`help` is not a command of the session")
        XCTAssertEqual(refusal(#"{"v": 1, "line": "status", "cmd": "quit"}"#),
                       #"a command gives either "line" or "cmd" with its fields, not both"#)
        // Found by the soak: a name given twice was read as its last value.
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "status", "v": 1}"#), #"a command gives each field once, and "v" comes twice"#)
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "set", "node": "amp", "param": "gain", "value": -6, "\u0076alue": 0}"#),
                       #"a command gives each field once, and "value" comes twice"#)
        XCTAssertEqual(refusal(#"{"v": 1, "cmd": "status", "x": {"v": 1}}"#), "`status` has no field `x`",
                       "the same name in a nested object is no repetition")
        XCTAssertEqual(refusal(#"{"v": 1, "line": "status", "note": ["v", "v"]}"#),
                       #"a command gives either "line" or "cmd" with its fields, not both"#, "strings in an array are no names")
    }

    /// The switch has no default: a new kind of change does not compile until
    /// it is listed in `testEveryChangeHasAnEventForm`, where it must have an
    /// event, an OSC form and a line in docs/control.md.
    private static func kindName(_ kind: ControlChange.Kind) -> String {
        switch kind {
        case .parameter: "parameter"
        case .property: "property"
        case .bypass: "bypass"
        case .presetApplied: "presetApplied"
        case .presetSaved: "presetSaved"
        case .tapStarted: "tapStarted"
        case .tapPaused: "tapPaused"
        case .tapResumed: "tapResumed"
        case .tapStopped: "tapStopped"
        case .tapFailed: "tapFailed"
        case .connected: "connected"
        case .disconnected: "disconnected"
        case .bounceStarted: "bounceStarted"
        case .bounceFinished: "bounceFinished"
        case .bounceFailed: "bounceFailed"
        case .learning: "learning"
        case .mapped: "mapped"
        case .unmapped: "unmapped"
        case .sceneApplied: "sceneApplied"
        case .saved: "saved"
        case .patchReloaded: "patchReloaded"
        case .patchRefused: "patchRefused"
        case .tempo: "tempo"
        case .tempoTapped: "tempoTapped"
        case .transport: "transport"
        case .engineCrashed: "engineCrashed"
        case .restored: "restored"
        case .patchSwitched: "patchSwitched"
        }
    }

    /// Every change has one JSON form: its event name, its source, the version.
    func testEveryChangeHasAnEventForm() throws {
        let take = ControlChange.Take(node: "drive", file: "take.wav", seconds: 1.5, droppedFrames: 0)
        let kinds: [ControlChange.Kind] = [
            .parameter(node: "amp", parameter: "gain", value: -6), .property(node: "cab", property: "ir", value: "/ir.wav"),
            .bypass(node: "amp", on: true), .presetApplied(node: "eq", name: "Flat"),
            .presetSaved(node: "amp", name: "Quiet", bundle: "/b"), .tapStarted(PortReference(node: "drive"), file: "take.wav"),
            .tapPaused(take), .tapResumed(take), .tapStopped(take), .tapFailed(take, reason: "disk full"),
            .connected(from: PortReference(node: "a"), to: PortReference(node: "b"), gainDecibels: -6),
            .disconnected(from: PortReference(node: "a"), to: PortReference(node: "b")), .bounceStarted(files: ["m.wav"]),
            .bounceFinished(ControlChange.Bounced(files: ["m.wav"], seconds: 3, elapsedSeconds: 0.1, speed: 30)),
            .bounceFailed(reason: "cancelled"), .learning(node: "amp", parameter: "gain"),
            .mapped(MIDIMapping(trigger: .controller(7), target: .parameter(node: "amp", symbol: "gain", range: nil, curve: .linear))),
            .unmapped(node: "amp", parameter: "gain"), .sceneApplied("lead"), .saved(file: "/p.yaml"),
            .patchReloaded(added: ["x"], removed: [], rewired: true), .patchRefused(reason: "p.yaml:3:1: no"),
            .tempo(120), .tempoTapped(taps: 1), .transport(rolling: true),
            .engineCrashed(LiveStatus.Crash(node: "bad", plugin: "Crashy", call: "run()", signal: "SIGSEGV", atSeconds: 1,
                                            restartSeconds: 0.2, leftOut: true, sentence: "node `bad` crashed")),
            .restored(node: "bad"), .patchSwitched(name: "solo", index: 1),
        ]
        var names: Set<String> = []
        for kind in kinds {
            let event = ControlProtocol.event(ControlChange(kind, from: .osc(sender: "127.0.0.1:9000")))
            guard case .object(let fields) = event else { return XCTFail("\(event)") }
            XCTAssertEqual(fields["v"], .number(1))
            XCTAssertEqual(fields["source"], .string("osc:127.0.0.1:9000"))
            guard case .string(let name)? = fields["event"] else { return XCTFail("\(event)") }
            names.insert(name)
            XCTAssertEqual(JSONValue.parse(event.text), event, "its text reads back")
        }
        XCTAssertEqual(names.count, kinds.count, "one name per kind of change")
        XCTAssertEqual(Set(kinds.map(Self.kindName)).count, 28, "every kind of change is listed once above")
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/control.md"), encoding: .utf8)
        for kind in kinds {
            XCTAssertNotNil(OSCFrontEnd.message(for: ControlChange(kind, from: .console)), "\(kind) has no OSC form")
            XCTAssertTrue(document.contains("`\(kind.eventName)`"), "docs/control.md lists no event `\(kind.eventName)`")
        }
        let parameter = ControlProtocol.event(ControlChange(.parameter(node: "amp", parameter: "gain", value: -6), from: .console))
        XCTAssertEqual(parameter.text, #"{"event":"parameter","node":"amp","param":"gain","source":"console","v":1,"value":-6}"#)
    }

    /// A tap whose file could not be written is news from the host itself,
    /// in every form: a sentence naming the tap, its file and why (on
    /// stderr), the JSON event with the take's fields and `reason`, and OSC
    /// with the seconds kept and the reason.
    func testATapFailureNamesTheTapTheFileAndWhy() {
        let take = ControlChange.Take(node: "src", file: "/takes/take.wav", seconds: 5.25, droppedFrames: 0)
        let change = ControlChange(.tapFailed(take, reason: "disk full"), from: .host)
        XCTAssertEqual(ConsoleEcho.text(change.kind),
                       "tap src → /takes/take.wav: disk full; the take stops at 0:05.2, its file closed and readable"
                       + " (the other taps and the sound go on)")
        XCTAssertEqual(ControlProtocol.event(change).text,
                       #"{"droppedFrames":0,"event":"tap.failed","file":"/takes/take.wav","node":"src","reason":"disk full","#
                       + #""seconds":5.25,"source":"host","v":1}"#)
        XCTAssertEqual(OSCFrontEnd.message(for: change),
                       OSCMessage("/fxhost/tap/failed", [.string("src"), .string("/takes/take.wav"), .float(5.25),
                                                         .string("disk full")]))
    }

    /// A `learn` that replaced mappings names them in every form: the
    /// console's echo, the JSON event (`replacing`) and OSC (further
    /// strings); one that replaced nothing reads as before.
    func testAMappingThatReplacesOthersNamesThem() {
        let learned = MIDIMapping(trigger: .controller(7), target: .parameter(node: "amp", symbol: "gain", range: nil, curve: .linear))
        let replaced = MIDIMapping(trigger: .controller(7), target: .parameter(node: "drive", symbol: "drive", range: nil, curve: .linear))
        let change = ControlChange(.mapped(learned, replacing: [replaced]), from: .midi)
        XCTAssertEqual(ConsoleEcho.text(change.kind), "mapped { cc: 7, to: amp:gain } (replacing { cc: 7, to: drive:drive })")
        XCTAssertEqual(ControlProtocol.event(change).text,
                       #"{"event":"mapped","mapping":"{ cc: 7, to: amp:gain }","param":"amp:gain","#
                       + #""replacing":["{ cc: 7, to: drive:drive }"],"source":"midi","v":1}"#)
        XCTAssertEqual(OSCFrontEnd.message(for: change),
                       OSCMessage("/fxhost/mapped", [.string("amp:gain"), .string("{ cc: 7, to: amp:gain }"),
                                                     .string("{ cc: 7, to: drive:drive }")]))
        let alone = ControlChange(.mapped(learned), from: .midi)
        XCTAssertEqual(ConsoleEcho.text(alone.kind), "mapped { cc: 7, to: amp:gain }")
        XCTAssertEqual(ControlProtocol.event(alone).text,
                       #"{"event":"mapped","mapping":"{ cc: 7, to: amp:gain }","param":"amp:gain","source":"midi","v":1}"#)
    }

    /// docs/control.md names every command in every form, and every event: it cannot fall behind the table.
    func testTheProtocolDocumentListsEveryCommandAndEvent() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let document = try String(contentsOf: root.appendingPathComponent("docs/control.md"), encoding: .utf8)
        for spec in CommandTable.all {
            XCTAssertTrue(document.contains(spec.syntax), "console: \(spec.syntax)")
            XCTAssertTrue(document.contains("`\(spec.oscAddress)"), "OSC: \(spec.oscAddress)")
            XCTAssertTrue(document.contains("\"cmd\": \"\(spec.name)\""), "JSON: \(spec.name)")
        }
        for (address, _) in OSCRequest.ownAddresses { XCTAssertTrue(document.contains("`\(address)"), address) }
        let names = ["parameter", "property", "bypass", "preset", "preset.saved", "tap.started", "tap.paused", "tap.resumed",
                     "tap.stopped", "connected", "disconnected", "bounce.started", "bounce.finished", "bounce.failed",
                     "learning", "mapped", "unmapped", "scene", "saved", "reloaded", "reload.refused", "tempo", "transport"]
        for name in names { XCTAssertTrue(document.contains("`\(name)`"), "event \(name)") }
    }
}
