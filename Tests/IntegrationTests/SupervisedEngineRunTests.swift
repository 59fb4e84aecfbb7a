import Foundation
import HostCore
import JackIO
import TestSupport
import XCTest

/// `fxhost run` supervises its engine: a plugin that crashes the engine
/// process is left out (bypassed) and the session plays on in a new engine,
/// started from the running state, until `restore NODE`. Driven as users
/// drive it (the console, python-osc, the websocket-client package), on a
/// private dummy JACK server, with the crash made on purpose by
/// `CrashingPlugins` (`after` is the number of blocks it passes first).
/// The oracles are the values the test itself set, the plugins' names in
/// their TTL, and the level arithmetic of a tap.
final class SupervisedEngineRunTests: XCTestCase {
    /// A value, a bypass, a connection's gain, the tempo and the scene, each
    /// changed from the patch's on the console, read back the same from `show
    /// --json` and `status --json` after the restart; `bad` is bypassed and left out; and the
    /// tap of the output holds the level those changes make, before and
    /// after the crash: 0.5 × 10^((-6 - 6 - 3)/20) (eg-amp at -6 dB, the
    /// gain stage's -6 dB, the connection's -3 dB, SWH's +6 dB amp bypassed).
    func testValuesBypassWiringTempoAndSceneAreTheSameAfterARestart() throws {
        let (server, folder, run) = try startRun()
        try makeChanges(run, server: server)
        XCTAssertEqual(ask(run, "status --json")?["scene"] as? String, "soft", "the scene the program change switched to")
        run.type("set bad after 0")
        let sentence = try XCTUnwrap(waitForCrash(run, count: 1))
        let held = Self.heldFrames(in: folder), heldBefore = LiveRun.frames(path("take.wav", in: folder))
        let framesAtCrash = Dictionary(uniqueKeysWithValues: Self.takes(in: folder).map { ($0, LiveRun.frames($0)) })
        assertCrashSentence(sentence, plugin: "Crashy Effect", folder: folder)

        let state = try XCTUnwrap(ask(run, "show --json"), run.stdout)
        assertChangesHeld(in: state)
        XCTAssertEqual(Self.node("bad", in: state)["bypassed"] as? Bool, true, "the culprit is left out")
        let status = try XCTUnwrap(ask(run, "status --json"), run.stdout)
        XCTAssertEqual(status["leftOut"] as? [String], ["bad"])
        XCTAssertEqual((status["crashes"] as? [Any])?.count, 1)
        XCTAssertEqual(status["scene"] as? String, "soft", "the scene switched to before the crash: \(status)")

        // What plays after the restart: the same level, on the tap the snapshot kept
        // (continued or in a new file, but never over the take made before the crash).
        // Two seconds written since the crash: the gap no engine recorded (a few hundred ms) and then sound.
        XCTAssertTrue(eventually(within: 60) { Self.heldFrames(in: folder) >= held + 2 * 48_000 },
                      "two seconds after the restart: \(Self.takes(in: folder))")
        // Silence the take may hold besides: the gaps the status names, the file player's underruns (its
        // reader starved on a loaded machine) and the server's xruns, as the engine counted them.
        let closing = try XCTUnwrap(ask(run, "status --json"), run.stdout)
        let gaps = (closing["taps"] as? [[String: Any]] ?? []).flatMap { $0["gaps"] as? [[String: Any]] ?? [] }
            .compactMap { $0["frames"] as? Int }.reduce(0, +)
        let underruns = (closing["files"] as? [[String: Any]] ?? []).compactMap { $0["underrunFrames"] as? Int }.reduce(0, +)
        let xruns = closing["xruns"] as? Int ?? 0
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertGreaterThanOrEqual(LiveRun.frames(path("take.wav", in: folder)), heldBefore,
                                    "the take made before the crash keeps what it held")
        // The take that grew after the restart ends in a second or more of the level the changes make;
        // silence among it only as long as the gaps and underruns counted (or where the server had an xrun).
        let level = 0.5 * Float(pow(10, -15.0 / 20))
        let grown = Self.takes(in: folder).filter { LiveRun.frames($0) >= (framesAtCrash[$0] ?? 0) + 48_000 }
        XCTAssertFalse(grown.isEmpty, "\(Self.takes(in: folder)) from \(framesAtCrash)")
        for file in grown {
            let runs = LiveRunTests.runs(of: try Audio.read(file).channels[0])
            let shown = "\(file): \(runs.map { ($0.value, $0.count) }), gaps of \(gaps) frames, \(underruns) underrun, \(xruns) xruns"
            // From the level's first run on (the disconnect's silence before it is not the restart's).
            let tail = runs.reversed().prefix { abs($0.value - level) <= 1e-6 || $0.value == 0 }.reversed().drop { $0.value == 0 }
            XCTAssertEqual(runs.last?.value ?? 0, level, accuracy: 1e-6, shown)
            XCTAssertGreaterThanOrEqual(tail.filter { $0.value != 0 }.map(\.count).reduce(0, +), 48_000, shown)
            let silent = tail.filter { $0.value == 0 }.map(\.count).reduce(0, +)
            XCTAssertTrue(silent <= gaps + underruns || xruns > 0, shown)
        }
    }

    /// `restore bad` lets it play again (it is no longer bypassed nor left
    /// out), and with its `after` at 0 it crashes again at once: a second
    /// crash, announced the same way, and `status --json` lists both.
    func testRestorePlaysTheNodeAgainAndItCrashesAgain() throws {
        let (_, folder, run) = try startRun()
        run.type("set bad after 0")
        let first = try XCTUnwrap(waitForCrash(run, count: 1))
        assertCrashSentence(first, plugin: "Crashy Effect", folder: folder)
        // Set again while it is left out (bypassed, so it does not run): the set that
        // crashed the engine may not have reached the snapshot (the engine died as it took it).
        setAfterToZero(run)
        run.type("restore bad")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("restored bad: it plays again") }, run.stdout + run.stderr)
        let second = try XCTUnwrap(waitForCrash(run, count: 2))
        assertCrashSentence(second, plugin: "Crashy Effect", folder: folder)

        let status = try XCTUnwrap(ask(run, "status --json"), run.stdout)
        let crashes = status["crashes"] as? [[String: Any]] ?? []
        XCTAssertEqual(crashes.count, 2, "\(status)")
        XCTAssertEqual(crashes.map { $0["node"] as? String }, ["bad", "bad"])
        XCTAssertEqual(crashes.map { $0["leftOut"] as? Bool }, [true, true])
        XCTAssertEqual(crashes.map { $0["sentence"] as? String }, [first, second])
        XCTAssertEqual(status["leftOut"] as? [String], ["bad"], "left out again after its second crash")
        XCTAssertEqual(Self.node("bad", in: try XCTUnwrap(ask(run, "show --json")))["bypassed"] as? Bool, true)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    /// `save` after a crash writes the patch as its user left it: the
    /// culprit is played bypassed until `restore`, but that is the crash's
    /// doing, so the file keeps the node playing (no `bypass`), while a
    /// bypass the user chose (`boost`) is written. A `bypass bad on` typed
    /// while it is left out is the user's choice, and the next save keeps it.
    func testSaveAfterACrashWritesTheCulpritAsTheUserLeftIt() throws {
        let (server, folder, run) = try startRun()
        try makeChanges(run, server: server)
        run.type("set bad after 0")
        _ = try XCTUnwrap(waitForCrash(run, count: 1))
        let patchPath = path("crash.yaml", in: folder)
        func saved() throws -> Patch {
            let echoes = run.stdout.components(separatedBy: "saved the running patch to \(patchPath)").count
            run.type("save")
            XCTAssertTrue(eventually(within: 30) {
                run.stdout.components(separatedBy: "saved the running patch to \(patchPath)").count > echoes
            }, run.stdout + run.stderr)
            return try PatchParser.parse(text: String(contentsOfFile: patchPath, encoding: .utf8), path: patchPath)
        }
        func bypass(_ node: String, in patch: Patch) -> Bool? {
            guard case .plugin(let spec)? = patch.node(named: node)?.kind else { return nil }
            return spec.bypass
        }
        let first = try saved()
        XCTAssertEqual(bypass("bad", in: first), false, "left out by the crash, not by its user")
        XCTAssertEqual(bypass("boost", in: first), true, "bypassed by its user")
        XCTAssertEqual(try XCTUnwrap(ask(run, "status --json"))["leftOut"] as? [String], ["bad"], "still left out")

        run.type("bypass bad on")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("bad bypassed") }, run.stdout)
        XCTAssertEqual(bypass("bad", in: try saved()), true, "bypassed by its user now")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    /// A plugin that aborts in instantiate() crashes the first engine
    /// before it plays. It is left out, and an engine that never makes it
    /// starts: the run goes on, with one sentence naming the node, the
    /// plugin, the call and the signal (and no backtrace on the terminal),
    /// and its stand-in passes the constant through unchanged: the chain
    /// before it (0 dB, +6 dB, -6 dB) gives 0.5 at the output, as it went in.
    func testACrashAtStartUpLeavesTheNodeOutAndTheRunGoesOn() throws {
        let (_, folder, run) = try startRun(plugin: CrashingPlugins.abortInInstantiate)
        let sentence = try XCTUnwrap(waitForCrash(run, count: 1))
        assertCrashSentence(sentence, plugin: "Aborting Effect", call: "instantiate()", signal: "SIGABRT", engine: "started",
                            folder: folder)
        let status = try XCTUnwrap(ask(run, "status --json"), run.stdout)
        XCTAssertEqual(status["leftOut"] as? [String], ["bad"])
        let crashes = status["crashes"] as? [[String: Any]] ?? []
        XCTAssertEqual(crashes.map { $0["call"] as? String }, ["instantiate()"], "\(status)")
        XCTAssertEqual(crashes.map { $0["sentence"] as? String }, [sentence])
        XCTAssertEqual(Self.node("bad", in: try XCTUnwrap(ask(run, "show --json")))["bypassed"] as? Bool, true)
        try assertPlaysThrough(run, folder: folder)
        for backtrace in ["Backtrace", "Program crashed", "Thread 0", "Fatal error"] {
            XCTAssertFalse(run.stderr.contains(backtrace), "no backtrace on the terminal: \(run.stderr)")
        }
    }

    /// `restore bad` of a node that crashed as it was made starts a new
    /// engine that makes it again: it aborts again, is left out again with
    /// a sentence of its own, and the run goes on as before, the constant
    /// passed through.
    func testRestoreOfANodeThatCrashedAsItWasMadeTriesAgainAndLeavesItOutAgain() throws {
        let (_, folder, run) = try startRun(plugin: CrashingPlugins.abortInInstantiate)
        _ = try XCTUnwrap(waitForCrash(run, count: 1))
        run.type("restore bad")
        let second = try XCTUnwrap(waitForCrash(run, count: 2))
        assertCrashSentence(second, plugin: "Aborting Effect", call: "instantiate()", signal: "SIGABRT", engine: "restarted",
                            folder: folder)
        let status = try XCTUnwrap(ask(run, "status --json"), run.stdout)
        XCTAssertEqual(status["leftOut"] as? [String], ["bad"], "left out again")
        XCTAssertEqual((status["crashes"] as? [[String: Any]])?.map { $0["call"] as? String }, ["instantiate()", "instantiate()"])
        XCTAssertEqual(Self.node("bad", in: try XCTUnwrap(ask(run, "show --json")))["bypassed"] as? Bool, true)
        try assertPlaysThrough(run, folder: folder)
    }

    /// The run plays on another second, then quits cleanly; the take that
    /// grew ends in a second or more of 0.5, the constant passed through `bad`.
    private func assertPlaysThrough(_ run: LiveRun, folder: URL, file: StaticString = #filePath, line: UInt = #line) throws {
        let held = Self.heldFrames(in: folder)
        let framesBefore = Dictionary(uniqueKeysWithValues: Self.takes(in: folder).map { ($0, LiveRun.frames($0)) })
        XCTAssertTrue(eventually(within: 60) { Self.heldFrames(in: folder) >= held + 48_000 },
                      "a second of sound: \(Self.takes(in: folder)) \(run.stderr)", file: file, line: line)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr, file: file, line: line)
        let grown = Self.takes(in: folder).filter { LiveRun.frames($0) >= (framesBefore[$0] ?? 0) + 48_000 }
        XCTAssertFalse(grown.isEmpty, "\(Self.takes(in: folder))", file: file, line: line)
        for take in grown {
            let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
            XCTAssertEqual(runs.last?.value ?? 0, 0.5, accuracy: 1e-5, "\(take): \(runs.map { ($0.value, $0.count) })",
                           file: file, line: line)
            XCTAssertGreaterThanOrEqual(runs.last?.count ?? 0, 48_000, "\(take): \(runs.map { ($0.value, $0.count) })",
                                        file: file, line: line)
        }
    }

    /// The crash reaches every front end: a python-osc subscriber hears
    /// `/fxhost/crashed` with the sentence, the node, the call and 1 (left
    /// out); a websocket-client on the events stream gets `engine.crashed`
    /// with the same sentence and fields; the console prints it on stderr;
    /// and `status --json` keeps the record. The crash is asked for by the
    /// OSC client itself, once both its listeners are in place.
    func testEveryFrontEndHearsTheCrash() throws {
        let port = try OSCRunTests.freeUDPPort()
        let (_, folder, run) = try startRun(arguments: ["--osc", "\(port)", "--web", "0"])
        XCTAssertTrue(eventually(within: 30) { WebRunTests.webURL(run.stderr) != nil }, run.stderr)
        let url = try XCTUnwrap(WebRunTests.webURL(run.stderr))
        let client = try Tools.run("python3", ["-c", Self.listeners, "\(port)", url])
        XCTAssertEqual(client.status, 0, "python-osc and websocket-client (scripts/install-deps.sh): \(client.stderr)")
        let heard = WebRunTests.lines(client.stdout)
        XCTAssertEqual(heard.count, 2, client.stdout + client.stderr)
        let console = try XCTUnwrap(waitForCrash(run, count: 1))
        assertCrashSentence(console, plugin: "Crashy Effect", folder: folder)

        let osc = heard.first { $0["osc"] != nil }?["osc"] as? [Any] ?? []
        XCTAssertEqual(osc.count, 4, "\(osc)")
        XCTAssertEqual(osc.first as? String, console, "OSC's sentence is the console's")
        XCTAssertEqual(osc.dropFirst().first as? String, "bad")
        XCTAssertEqual(osc.dropFirst(2).first as? String, "run()")
        XCTAssertEqual(osc.dropFirst(3).first as? Int, 1, "left out")

        let web = heard.first { $0["event"] as? String == "engine.crashed" } ?? [:]
        XCTAssertEqual(web["v"] as? Int, 1)
        XCTAssertEqual(web["source"] as? String, "host")
        XCTAssertEqual(web["sentence"] as? String, console, "the web's sentence is the console's")
        XCTAssertEqual(web["node"] as? String, "bad")
        XCTAssertEqual(web["plugin"] as? String, "Crashy Effect")
        XCTAssertEqual(web["call"] as? String, "run()")
        XCTAssertEqual(web["signal"] as? String, "SIGSEGV")
        XCTAssertEqual(web["leftOut"] as? Bool, true)
        XCTAssertNotNil(web["restartSeconds"] as? Double, "\(web)")

        let status = try XCTUnwrap(ask(run, "status --json"), run.stdout)
        let crashes = status["crashes"] as? [[String: Any]] ?? []
        XCTAssertEqual(crashes.count, 1, "\(status)")
        let crash = crashes.first ?? [:]
        XCTAssertEqual(crash["node"] as? String, "bad")
        XCTAssertEqual(crash["plugin"] as? String, "Crashy Effect")
        XCTAssertEqual(crash["call"] as? String, "run()")
        XCTAssertEqual(crash["signal"] as? String, "SIGSEGV")
        XCTAssertEqual(crash["leftOut"] as? Bool, true)
        XCTAssertEqual(crash["sentence"] as? String, console)
        XCTAssertNotNil(crash["restartSeconds"] as? Double, "\(crash)")
        XCTAssertEqual(status["leftOut"] as? [String], ["bad"])
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    /// A stack overflow in run() on libjack's process thread reaches the
    /// crash report on an alternate signal stack of that thread's own, and
    /// the engine restarts without the node, as for any crash.
    func testAStackOverflowInRunRestartsTheSameWay() throws {
        let (_, folder, run) = try startRun(plugin: CrashingPlugins.overflowInRun)
        run.type("set bad after 0")
        let sentence = try XCTUnwrap(waitForCrash(run, count: 1))
        assertCrashSentence(sentence, plugin: "Deep Effect", folder: folder)
        let status = try XCTUnwrap(ask(run, "status --json"), run.stdout)
        XCTAssertEqual(status["leftOut"] as? [String], ["bad"])
        XCTAssertEqual((status["crashes"] as? [[String: Any]])?.first?["plugin"] as? String, "Deep Effect")
        XCTAssertEqual(Self.node("bad", in: try XCTUnwrap(ask(run, "show --json")))["bypassed"] as? Bool, true)
        // It plays on: the restarted engine's tap records another second.
        let held = Self.heldFrames(in: folder)
        XCTAssertTrue(eventually(within: 60) { Self.heldFrames(in: folder) >= held + 48_000 }, "\(Self.takes(in: folder))")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    // MARK: Helpers

    /// `fxhost run` of a constant 0.5 through eg-amp (0 dB), SWH's amp
    /// (+6 dB), a gain stage (-6 dB) and `plugin` (which passes its input
    /// through until it crashes, `after` far off) to a mono output, tapped to
    /// take.wav; started with the console, once the take is under way.
    private func startRun(plugin: String = CrashingPlugins.crashInRun, arguments: [String] = []) throws
        -> (server: JackServerProcess, folder: URL, run: LiveRun) {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(name)
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try Audio.constant([0.5], frames: 48_000 * 120).write(path("dc.wav", in: folder))
        try """
        fxhost: 1
        nodes:
          dc:    { file: dc.wav }
          amp:   { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
          boost: { plugin: http://plugin.org.uk/swh-plugins/amp, params: { gain: 6 } }
          trim:  { gain: -6dB }
          bad:   { plugin: "\(plugin)", params: { after: 1000000 } }
          main:  { output: 1 }
        chain: [dc, amp, boost, trim, bad, main]
        taps:
          - { at: main, file: take.wav }
        midi-control:
          map:
            - { program: 5, scene: soft }
        scenes:
          soft: { amp: { gain: -3 } }
          loud: { amp: { gain: 0 } }
        """.write(toFile: path("crash.yaml", in: folder), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("crash.yaml", in: folder), "--server", server.name, "--no-connect",
                               "--quiet", "--duration", "300s"] + arguments,
                              console: true,
                              environment: ["LV2_PATH": plugins.path + ":/usr/lib/lv2", "TMPDIR": folder.path])
        XCTAssertTrue(run.waitForTap(path("take.wav", in: folder), seconds: 0.3), run.stderr)
        return (server, folder, run)
    }

    /// Changes every kind of state a restart must keep, each away from the
    /// patch's, waiting for each echo; the scene by a program change from
    /// another JACK client (PyPI's JACK-Client), on the patch's `midi_control` port.
    private func makeChanges(_ run: LiveRun, server: JackServerProcess, file: StaticString = #filePath, line: UInt = #line) throws {
        // The scenes first (on the console, then by a program change the
        // realtime thread applies): the values set after them must win over them after the restart too.
        run.type("scene loud")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("scene loud") }, run.stdout + run.stderr, file: file, line: line)
        try MIDISender.send([.program(5)], server: server.name, to: "fxhost:midi_control")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("scene soft") }, run.stdout + run.stderr, file: file, line: line)
        for (command, echo) in [("set amp gain -6", "amp:gain = -6.0"), ("bypass boost on", "boost bypassed"),
                                ("disconnect trim bad", "disconnected trim → bad"),
                                ("connect trim bad -3 dB", "connected trim → bad (-3.0 dB)"),
                                ("tempo 133", "tempo 133 bpm")] {
            run.type(command)
            XCTAssertTrue(eventually(within: 30) { run.stdout.contains(echo) }, "\(command): \(run.stdout) \(run.stderr)",
                          file: file, line: line)
        }
    }

    /// `set bad after 0` while `bad` is left out, waiting for its echo.
    private func setAfterToZero(_ run: LiveRun, file: StaticString = #filePath, line: UInt = #line) {
        let echo = "bad:after = 0.0\n"
        let before = run.stdout.components(separatedBy: echo).count
        run.type("set bad after 0")
        XCTAssertTrue(eventually(within: 30) { run.stdout.components(separatedBy: echo).count > before },
                      run.stdout + run.stderr, file: file, line: line)
    }

    /// The changes `makeChanges` made, as `show --json` reports them.
    private func assertChangesHeld(in state: [String: Any], file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(Self.value("gain", of: "amp", in: state), -6, "amp:gain as set", file: file, line: line)
        XCTAssertEqual(Self.node("boost", in: state)["bypassed"] as? Bool, true, "boost bypassed as set", file: file, line: line)
        let connections = (state["connections"] as? [[String: Any]] ?? []).map {
            "\($0["from"] as? String ?? "?") → \($0["to"] as? String ?? "?") \($0["gainDB"] as? Double ?? .nan)"
        }
        XCTAssertEqual(connections.sorted(), ["amp → boost 0.0", "boost → trim 0.0", "dc → amp 0.0", "bad → main 0.0",
                                              "trim → bad -3.0"].sorted(), file: file, line: line)
        XCTAssertEqual((state["tempo"] as? [String: Any])?["beatsPerMinute"] as? Double, 133, "the tempo as set",
                       file: file, line: line)
    }

    /// Waits for the `count`th crash of `bad` on stderr and returns its sentence, without the
    /// `fxhost: error: ` before it. (A command the engine died before answering is refused
    /// with a sentence of its own, on another line.)
    private func waitForCrash(_ run: LiveRun, count: Int, file: StaticString = #filePath, line: UInt = #line) -> String? {
        let errors = { run.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: error: node `bad` ") } }
        guard eventually(within: 60, { errors().count >= count }) else {
            XCTFail("no crash \(count) on stderr: \(run.stderr)", file: file, line: line)
            return nil
        }
        return String(errors()[count - 1].dropFirst("fxhost: error: ".count))
    }

    /// The sentence in its exact words, but for the seconds the restart took;
    /// the backtrace it names is a file written in this test's TMPDIR.
    private func assertCrashSentence(_ sentence: String, plugin: String, call: String = "run()", signal: String = "SIGSEGV",
                                     engine verb: String = "restarted", folder: URL,
                                     file: StaticString = #filePath, line: UInt = #line) {
        let pattern = #"^node `bad` \("# + NSRegularExpression.escapedPattern(for: plugin) + #"\) crashed in "#
            + NSRegularExpression.escapedPattern(for: call) + " \\(" + signal + #"\); the engine "# + verb
            + #" without it in [0-9]+\.[0-9]{2} s; "#
            + #"`restore bad` tries it again; the backtrace is in (.+)$"#
        let expression = try! NSRegularExpression(pattern: pattern)
        let whole = NSRange(sentence.startIndex..., in: sentence)
        guard let match = expression.firstMatch(in: sentence, range: whole),
              let range = Range(match.range(at: 1), in: sentence) else {
            return XCTFail("not the crash sentence: \(sentence)", file: file, line: line)
        }
        let backtrace = String(sentence[range])
        XCTAssertTrue(backtrace.hasPrefix(folder.path + "/"), "in TMPDIR: \(backtrace)", file: file, line: line)
        XCTAssertTrue(FileManager.default.fileExists(atPath: backtrace), backtrace, file: file, line: line)
    }

    /// Types a question answered in pretty JSON (`status --json`, `show
    /// --json`) and returns the answer once it is printed.
    private func ask(_ run: LiveRun, _ question: String) -> [String: Any]? {
        let before = LiveRun.prettyJSONDocuments(in: run.stdout).count
        run.type(question)
        guard eventually(within: 60, { LiveRun.prettyJSONDocuments(in: run.stdout).count > before }) else { return nil }
        let text = LiveRun.prettyJSONDocuments(in: run.stdout)[before]
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// A parameter's value in `show --json`'s state.
    private static func value(_ symbol: String, of name: String, in state: [String: Any]) -> Double? {
        (node(name, in: state)["parameters"] as? [[String: Any]])?.first { $0["symbol"] as? String == symbol }?["value"] as? Double
    }

    private static func node(_ name: String, in state: [String: Any]) -> [String: Any] {
        (state["nodes"] as? [[String: Any]])?.first { $0["name"] as? String == name } ?? [:]
    }

    /// The takes in `folder`, by name.
    private static func takes(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasPrefix("take") && $0.hasSuffix(".wav") }.sorted()
            .map { folder.appendingPathComponent($0).path }
    }

    /// The frames the takes in `folder` hold together, as their headers say.
    private static func heldFrames(in folder: URL) -> Int { takes(in: folder).map(LiveRun.frames).reduce(0, +) }

    private func path(_ name: String, in folder: URL) -> String { folder.appendingPathComponent(name).path }

    /// Python: subscribes over OSC (python-osc; a status round trip makes
    /// sure the subscription is in place) and opens the events WebSocket
    /// (websocket-client; its `hello` comes once the stream is registered),
    /// then asks for the crash with `/fxhost/set bad after 0`, and prints
    /// what each heard of it: `{"osc": [arguments]}` and the web's event.
    private static let listeners = OSCRunTests.clientStart + """
        import websocket
        from pythonosc.osc_message import OscMessage
        send("/fxhost/subscribe")
        send("/fxhost/status")
        while OscMessage(sock.recvfrom(65536)[0]).address != "/fxhost/status":
            pass
        ws = websocket.create_connection(sys.argv[2].rstrip('/').replace('http://', 'ws://') + '/api/v1/events', timeout=60)
        assert json.loads(ws.recv())['event'] == 'hello'
        sock.settimeout(60)
        send("/fxhost/set", "bad", "after", 0.0)
        while True:
            message = OscMessage(sock.recvfrom(65536)[0])
            if message.address == "/fxhost/error":
                sys.exit("error: " + str(message.params))
            if message.address == "/fxhost/crashed":
                print(json.dumps({"osc": list(message.params)}), flush=True)
                break
        while True:
            event = json.loads(ws.recv())
            if event['event'] == 'engine.crashed':
                print(json.dumps(event), flush=True)
                break
        ws.close()
        """
}
