import Foundation
import HostCore
import XCTest

/// `fxhost run show.yaml` where the file is a setlist, and `fxhost check`
/// of one, end to end on private dummy servers: a constant through eg-amp
/// at a level each patch sets, tapped at the output (the same file in both
/// patches, so one take spans the switches), judged by the take's runs.
final class SetlistRunTests: XCTestCase {
    private static let amp = "http://lv2plug.in/plugins/eg-amp"
    private static let minus6 = Float(pow(10, -6.0 / 20))

    /// verse: 0.5 through `amp` at 0 dB; solo: through `trim` (another
    /// node: a new instance) at -6 dB; both tap `main` to take.wav and take
    /// program changes on `midi-control:`.
    private static func writeShow(_ folder: URL, spillover: String = "0s", soloNode: String = "trim") throws -> String {
        try Audio.constant([0.5], frames: 48_000 * 120).write(folder.appendingPathComponent("dc.wav").path)
        func patch(_ node: String, _ gain: Int) -> String {
            """
            fxhost: 1
            nodes:
              dc: { file: dc.wav }
              \(node): { plugin: \(amp), params: { gain: \(gain) } }
              main: { output: 1 }
            chain: [dc, \(node), main]
            taps:
              - { at: main, file: take.wav }
            midi-control:

            """
        }
        try patch("amp", 0).write(to: folder.appendingPathComponent("verse.yaml"), atomically: true, encoding: .utf8)
        try patch(soloNode, -6).write(to: folder.appendingPathComponent("solo.yaml"), atomically: true, encoding: .utf8)
        let show = folder.appendingPathComponent("show.yaml").path
        try """
            fxhost-setlist: 1
            spillover: \(spillover)
            patches:
              - { name: verse, patch: verse.yaml, program: 1 }
              - { name: solo, patch: solo.yaml, program: 2 }

            """.write(toFile: show, atomically: true, encoding: .utf8)
        return show
    }

    /// `check` reads every patch of the setlist; a mistake in the second is
    /// named at that patch file's own line and column.
    func testCheckValidatesEveryPatchAtItsOwnPlace() throws {
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShow(folder)
        let result = try Tools.fxhost(["check", show])
        XCTAssertTrue(result.stdout.contains("verse (\(folder.path)/verse.yaml, program 1): 3 nodes"), result.stdout)
        XCTAssertTrue(result.stdout.contains("solo (\(folder.path)/solo.yaml, program 2): 3 nodes"), result.stdout)
        XCTAssertTrue(result.stdout.hasSuffix("setlist: 2 patches, spillover 0 s\nOK\n"), result.stdout)
        // `gian` on line 4 of solo.yaml, after "  trim: { plugin: <URI>, params: { ".
        let solo = folder.appendingPathComponent("solo.yaml").path
        try String(contentsOfFile: solo, encoding: .utf8).replacingOccurrences(of: "gain: -6", with: "gian: -6")
            .write(toFile: solo, atomically: true, encoding: .utf8)
        let broken = try Tools.run(Tools.fxhost, ["check", show])
        XCTAssertEqual(broken.status, 1)
        let column = "  trim: { plugin: \(Self.amp), params: { ".count + 1
        XCTAssertTrue(broken.stderr.contains("\(solo):4:\(column): node `trim`: `Simple Amplifier` has no parameter `gian`"),
                      broken.stderr)
        // --watch follows one file: refused before anything starts (no server is needed to say so).
        let watched = try Tools.run(Tools.fxhost, ["run", show, "--watch"])
        XCTAssertEqual(watched.status, 1)
        XCTAssertTrue(watched.stderr.contains("--watch follows one patch file; a setlist switches between several, so it is not watched"),
                      watched.stderr)
    }

    /// `next`, a refused `load`, then `prev` from the console, and a MIDI
    /// program change from a JACK client: each switch lands at a block
    /// boundary with no gap (no run of zeros), the level is each patch's
    /// own (×0.501187 for -6 dB), and one take spans them all.
    func testConsoleAndProgramChangesSwitchPatchesWithNoGap() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShow(folder)
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.5), run.stderr)
        run.type("next")
        XCTAssertTrue(run.waitForRuns(take, count: 2, lastAtLeast: 24_000), run.stderr)
        run.type("load chorus")
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains("the setlist has no patch `chorus`") }, run.stderr)
        run.type("prev")
        XCTAssertTrue(run.waitForRuns(take, count: 3, lastAtLeast: 24_000), run.stderr)
        try MIDISender.send([.program(2)], server: server.name, to: "fxhost:midi_control")
        XCTAssertTrue(run.waitForRuns(take, count: 4, lastAtLeast: 24_000), run.stderr)
        run.type("status --json")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("\"spilloverSeconds\"") }, run.stdout)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("setlist: playing solo (2)\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("setlist: playing verse (1)\n"), run.stdout)
        let status = LiveRun.prettyJSONDocuments(in: run.stdout).last ?? ""
        let position = try JSONDecoder().decode(LiveStatusSetlist.self, from: Data(status.utf8)).setlist
        XCTAssertEqual(position.name, "solo")
        XCTAssertEqual(position.index, 1)
        XCTAssertEqual(position.patches, ["verse", "solo"])

        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertFalse(runs.contains { $0.value == 0 }, "a gap: \(runs.map { ($0.value, $0.count) })")
        XCTAssertEqual(runs.count, 4, "verse, solo, verse, solo: \(runs.map { ($0.value, $0.count) })")
        guard runs.count == 4 else { return }
        XCTAssertEqual(runs[0].value, 0.5)
        XCTAssertEqual(runs[1].value, 0.5 * Self.minus6, accuracy: 1e-6)
        XCTAssertEqual(runs[2].value, 0.5)
        XCTAssertEqual(runs[3].value, 0.5 * Self.minus6, accuracy: 1e-6)
    }

    private struct LiveStatusSetlist: Decodable {
        struct Position: Decodable {
            var name: String
            var index: Int
            var patches: [String]
        }
        var setlist: Position
    }

    /// verse: a stereo burst (0.2 s of 440 Hz, then silence) through mda
    /// Delay with feedback 0.9 to `wet` (its echoes, rendered offline, peak at
    /// 0.27 in the second 0.5 s and still 0.04 after 6 s: well over 0.01 with the switch seconds late), and a constant 0.5 through eg-amp
    /// at 0 dB to `dry`; solo: the burst straight to `wet` (silence by
    /// then) and the constant through `trim` at -6 dB. A switch at 1.5 s,
    /// with a 2 s spillover: `dry` has no gap and is solo's level from the
    /// switch on (the old amp spills silence); `wet` holds the old delay's
    /// echoes after the switch, until the fade's end, and exactly 0 from
    /// there (the spill fades to 0 over its last half second, then goes).
    func testASwitchLetsTheOldPatchsEchoesRingForTheSpillover() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let rate = 48_000, seconds = 40
        let burst = (0..<rate * seconds).map { $0 < rate / 5 ? Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) : 0 }
        try Audio(channels: [burst, burst]).write(folder.appendingPathComponent("burst.wav").path)
        try Audio.constant([0.5], frames: rate * seconds).write(folder.appendingPathComponent("dc.wav").path)
        func patch(_ nodes: String, _ chains: String) -> String {
            """
            fxhost: 1
            nodes:
              burst: { file: burst.wav }
              dc: { file: dc.wav }
              wet: { output: 2 }
              dry: { output: 1 }
            \(nodes)
            connect:
            \(chains)
            taps:
              - { at: wet, file: wet.wav }
              - { at: dry, file: dry.wav }

            """
        }
        try patch("""
              echo: { plugin: mda/Delay, params: { l_delay: 0.6, r_delay: 0.6, feedback: 0.9, fx_mix: 1, output: 0.4 } }
              amp: { plugin: \(Self.amp), params: { gain: 0 } }
            """, """
              - { from: burst, to: echo }
              - { from: echo, to: wet }
              - { from: dc, to: amp }
              - { from: amp, to: dry }
            """).write(to: folder.appendingPathComponent("verse.yaml"), atomically: true, encoding: .utf8)
        try patch("""
              trim: { plugin: \(Self.amp), params: { gain: -6 } }
            """, """
              - { from: burst, to: wet }
              - { from: dc, to: trim }
              - { from: trim, to: dry }
            """).write(to: folder.appendingPathComponent("solo.yaml"), atomically: true, encoding: .utf8)
        let show = folder.appendingPathComponent("show.yaml").path
        try "fxhost-setlist: 1\nspillover: 2s\npatches:\n  - { name: verse, patch: verse.yaml }\n  - { name: solo, patch: solo.yaml }\n"
            .write(toFile: show, atomically: true, encoding: .utf8)
        let wet = folder.appendingPathComponent("wet.wav").path, dry = folder.appendingPathComponent("dry.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(dry, seconds: 1.5), run.stderr)
        run.type("next")
        // Past the spillover and its removal, by the audio's own frames.
        XCTAssertTrue(run.waitForRuns(dry, count: 2, lastAtLeast: rate * 7 / 2), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        let dryRuns = LiveRunTests.runs(of: try Audio.read(dry).channels[0])
        XCTAssertEqual(dryRuns.count, 2, "verse's 0 dB, then solo's -6 dB, no gap: \(dryRuns.map { ($0.value, $0.count) })")
        guard dryRuns.count == 2 else { return }
        XCTAssertEqual(dryRuns[0].value, 0.5)
        XCTAssertEqual(dryRuns[1].value, 0.5 * Self.minus6, accuracy: 1e-6)
        let switchFrame = dryRuns[0].count
        let echoes = try Audio.read(wet)
        XCTAssertEqual(echoes.channels[0].count, dryRuns[0].count + dryRuns[1].count, "both taps began in the same cycle")
        func peak(_ from: Double, _ to: Double) -> Float {
            let range = max(0, switchFrame + Int(from * Double(rate)))..<min(echoes.channels[0].count, switchFrame + Int(to * Double(rate)))
            return echoes.channels.map { channel in range.map { abs(channel[$0]) }.max() ?? 0 }.max() ?? 0
        }
        XCTAssertGreaterThan(peak(-0.3, 0), 0.01, "the echoes ring as the switch comes")
        XCTAssertGreaterThan(peak(0, 0.5), 0.01, "and go on after it")
        XCTAssertGreaterThan(peak(1.0, 1.5), 0.01, "until the fade starts, 0.5 s before the spillover's end")
        XCTAssertEqual(peak(2.0, 20), 0, "and stop at its end")
        // The fade: over the last 0.5 s a sample is at most its linear gain ((end - n) / 0.5 s) times the
        // echoes' peak just before the fade (a feedback delay's echoes only decay, fed silence).
        let before = peak(1.0, 1.5), end = switchFrame + 2 * rate, fade = rate / 2
        for channel in echoes.channels {
            let louder = (end - fade..<end).filter { abs(channel[$0]) > Float(end - $0) / Float(fade) * before + 1e-6 }
            XCTAssertTrue(louder.isEmpty, "above the linear fade at \(louder.prefix(3).map { Double($0 - switchFrame) / Double(rate) }) s")
        }
    }

    /// The `--web` page in headless Chromium (`Tests/Browser/page_setlist.py`):
    /// the selector lists the setlist's names, verse selected and `prev`
    /// disabled; `next` puts the server on solo, and the page then draws
    /// solo's `trim gain` instead of verse's `amp gain` (it reads the state
    /// anew on the `setlist` event); choosing verse in the selector switches back.
    func testThePageSwitchesPatchesAndDrawsTheNewOnesControls() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShow(folder)
        let seen = try WebPageTests.browse("page_setlist.py", [Tools.fxhost, show, server.name])
        func report(_ kind: String) -> [String: Any] { seen.first { $0["kind"] as? String == kind } ?? [:] }
        XCTAssertEqual(report("start")["options"] as? [String], ["verse", "solo"], "\(seen)")
        XCTAssertEqual(report("start")["selected"] as? String, "verse")
        XCTAssertEqual(report("start")["server"] as? String, "verse")
        XCTAssertEqual(report("start")["controls"] as? [String], ["amp gain"])
        XCTAssertEqual(report("start")["previous"] as? Bool, true, "no patch before the first")
        XCTAssertEqual(report("next")["server"] as? String, "solo")
        XCTAssertEqual(report("next")["selected"] as? String, "solo")
        XCTAssertEqual(report("next")["controls"] as? [String], ["trim gain"])
        XCTAssertEqual(report("next")["next"] as? Bool, true, "no patch after the last")
        XCTAssertEqual(report("chosen")["server"] as? String, "verse")
        XCTAssertEqual(report("chosen")["controls"] as? [String], ["amp gain"])
        XCTAssertEqual(report("exit")["status"] as? Int, 0)
    }

    /// A plugin of solo crashes the engine after `next`: the supervisor
    /// restarts it on solo, not the setlist's first patch. `status --json`
    /// says solo, `show --json` has solo's `trim` and no `amp`, and the take
    /// goes on at solo's level, 0.5 × 0.501187 (the culprit left out passes its input).
    func testACrashedEngineComesBackOnThePatchPlaying() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        let show = try Self.writeShow(folder)
        let solo = folder.appendingPathComponent("solo.yaml").path
        try String(contentsOfFile: solo, encoding: .utf8)
            .replacingOccurrences(of: "  main: { output: 1 }", with: "  bad: { plugin: \"\(CrashingPlugins.crashInRun)\", params: { after: 1000000 } }\n  main: { output: 1 }")
            .replacingOccurrences(of: "chain: [dc, trim, main]", with: "chain: [dc, trim, bad, main]")
            .write(toFile: solo, atomically: true, encoding: .utf8)
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet", "--no-connect"], console: true,
                              environment: ["LV2_PATH": plugins.path + ":/usr/lib/lv2", "TMPDIR": folder.path])
        XCTAssertTrue(run.waitForTap(take, seconds: 0.3), run.stderr)
        run.type("next")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("setlist: playing solo (2)") }, run.stdout + run.stderr)
        run.type("set bad after 0")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("fxhost: error: node `bad` ") }, run.stderr)
        let atCrash = LiveRun.frames(take)
        XCTAssertTrue(eventually(within: 60) { LiveRun.frames(take) >= atCrash + 48_000 }, "a second after the restart")
        let before = LiveRun.prettyJSONDocuments(in: run.stdout).count
        run.type("status --json")
        run.type("show --json")
        XCTAssertTrue(eventually(within: 60) { LiveRun.prettyJSONDocuments(in: run.stdout).count >= before + 2 }, run.stdout)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let documents = LiveRun.prettyJSONDocuments(in: run.stdout).dropFirst(before).map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        XCTAssertEqual((documents.first?["setlist"] as? [String: Any])?["name"] as? String, "solo", "\(documents)")
        let names = (documents.last?["nodes"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertTrue(names.contains("trim") && !names.contains("amp"), "\(names)")
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.last?.value ?? 0, 0.5 * Self.minus6, accuracy: 1e-6, "\(runs.map { ($0.value, $0.count) })")
        XCTAssertGreaterThanOrEqual(runs.last?.count ?? 0, 48_000, "\(runs.map { ($0.value, $0.count) })")
    }

    /// solo's plugin crashes in its first block, so the engine dies right
    /// after a MIDI program switch, before or after the supervisor took the
    /// running state: either way the restarted engine plays one patch under
    /// that patch's own name. The oracle is the two files: `status --json`
    /// names a patch, and `show --json` and the take's level must be that
    /// patch's (verse: `amp`, 0.5; solo: `trim`, 0.5 × 0.501187), never one
    /// patch's graph under the other's name (which `save` would write over
    /// the other's file).
    func testACrashRightAfterAProgramSwitchComesBackWithNameAndTextOfOnePatch() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        let show = try Self.writeShow(folder)
        let solo = folder.appendingPathComponent("solo.yaml").path
        try String(contentsOfFile: solo, encoding: .utf8)
            .replacingOccurrences(of: "  main: { output: 1 }", with: "  bad: { plugin: \"\(CrashingPlugins.crashInRun)\", params: { after: 0 } }\n  main: { output: 1 }")
            .replacingOccurrences(of: "chain: [dc, trim, main]", with: "chain: [dc, trim, bad, main]")
            .write(toFile: solo, atomically: true, encoding: .utf8)
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet"], console: true,
                              environment: ["LV2_PATH": plugins.path + ":/usr/lib/lv2", "TMPDIR": folder.path])
        XCTAssertTrue(run.waitForTap(take, seconds: 0.3), run.stderr)
        try MIDISender.send([.program(2)], server: server.name, to: "fxhost:midi_control")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("fxhost: error: node `bad` ") }, run.stderr)
        let atCrash = LiveRun.frames(take)
        XCTAssertTrue(eventually(within: 60) { LiveRun.frames(take) >= atCrash + 48_000 }, "a second after the restart")
        let before = LiveRun.prettyJSONDocuments(in: run.stdout).count
        run.type("status --json")
        run.type("show --json")
        XCTAssertTrue(eventually(within: 60) { LiveRun.prettyJSONDocuments(in: run.stdout).count >= before + 2 }, run.stdout)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let documents = LiveRun.prettyJSONDocuments(in: run.stdout).dropFirst(before).map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
        let name = (documents.first?["setlist"] as? [String: Any])?["name"] as? String
        let names = (documents.last?["nodes"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        switch name {
        case "verse":
            XCTAssertTrue(names.contains("amp") && !names.contains("trim"), "verse's name over \(names)")
            XCTAssertEqual(runs.last?.value ?? 0, 0.5, accuracy: 1e-6, "\(runs.map { ($0.value, $0.count) })")
        case "solo":
            XCTAssertTrue(names.contains("trim") && !names.contains("amp"), "solo's name over \(names)")
            XCTAssertEqual(runs.last?.value ?? 0, 0.5 * Self.minus6, accuracy: 1e-6, "\(runs.map { ($0.value, $0.count) })")
        default:
            XCTFail("no setlist patch named: \(documents)")
        }
    }

    /// With a 30 s spillover, `next` leaves verse's `amp` ringing as
    /// `spill1.amp`: no front end may address it. The console's `bypass`
    /// and `set`, OSC's `/fxhost/set` and a JSON `bypass` (python-osc)
    /// are each refused with the spill's sentence, and none is announced.
    func testNoFrontEndAddressesASpillsNodes() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShow(folder, spillover: "30s")
        let take = folder.appendingPathComponent("take.wav").path
        let port = try OSCRunTests.freeUDPPort()
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet", "--osc", "\(port)"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.3), run.stderr)
        run.type("next")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("setlist: playing solo (2)") }, run.stdout + run.stderr)
        run.type("bypass spill1.amp on")
        run.type("set spill1.amp gain -20")
        let sentence = "is the previous patch ringing out after a setlist switch, and takes no commands"
        XCTAssertTrue(eventually(within: 60) { run.stderr.components(separatedBy: sentence).count == 3 }, run.stderr)
        let client = try Tools.run("python3", ["-c", OSCRunTests.clientStart + """
            send("/fxhost/set", "spill1.amp", "gain", -20.0)
            reply()
            send("/fxhost/json", '{"v": 1, "cmd": "bypass", "node": "spill1.amp", "on": true}')
            reply()
            """, "\(port)"])
        XCTAssertEqual(client.status, 0, client.stderr)
        let replies = OSCRunTests.replies(client.stdout)
        XCTAssertEqual(replies.count, 2, client.stdout)
        guard replies.count == 2 else { return }
        XCTAssertEqual(replies[0].first as? String, "/fxhost/error", "\(replies[0])")
        XCTAssertTrue(replies[0].contains { ($0 as? String)?.contains(sentence) == true }, "\(replies[0])")
        let reply = (replies[1].last as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(reply?["ok"] as? Bool, false, "\(replies[1])")
        XCTAssertTrue("\(reply ?? [:])".contains(sentence), "\(replies[1])")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("spill1.amp"), "nothing announced about the spill: \(run.stdout)")
    }

    /// Three program changes in one JACK cycle (solo, verse, solo, on three
    /// channels: the callback keeps only the last per channel) make one
    /// switch, to the last: `setlist: playing solo (2)` is announced once,
    /// verse never, and the take has two runs (verse's 0.5, then solo's).
    func testABurstOfProgramChangesSwitchesOnceToTheLast() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShow(folder)
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.3), run.stderr)
        try MIDISender.send([.program(2, channel: 1), .program(1, channel: 2), .program(2, channel: 3)],
                           server: server.name, to: "fxhost:midi_control", perCycle: 3)
        XCTAssertTrue(run.waitForRuns(take, count: 2, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertEqual(run.stdout.components(separatedBy: "setlist: playing solo (2)\n").count, 2, run.stdout)
        XCTAssertFalse(run.stdout.contains("setlist: playing verse (1)"), run.stdout)
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.count, 2, "verse, then solo: \(runs.map { ($0.value, $0.count) })")
        XCTAssertEqual(runs.last?.value ?? 0, 0.5 * Self.minus6, accuracy: 1e-6)
    }

    /// show.yaml with verse in `a/` and solo in `b/` (no spillover), each
    /// a constant through eg-amp at 0 dB, tapping `main` to its own folder's take.wav.
    private static func writeShowInTwoFolders(_ folder: URL) throws -> String {
        let dc = folder.appendingPathComponent("dc.wav").path
        try Audio.constant([0.5], frames: 48_000 * 60).write(dc)
        for (sub, name, node) in [("a", "verse", "amp"), ("b", "solo", "trim")] {
            let subfolder = folder.appendingPathComponent(sub)
            try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: true)
            try """
                fxhost: 1
                nodes:
                  dc: { file: \(dc) }
                  \(node): { plugin: \(amp), params: { gain: 0 } }
                  main: { output: 1 }
                chain: [dc, \(node), main]
                taps:
                  - { at: main, file: take.wav }

                """.write(to: subfolder.appendingPathComponent("\(name).yaml"), atomically: true, encoding: .utf8)
        }
        let show = folder.appendingPathComponent("show.yaml").path
        try "fxhost-setlist: 1\nspillover: 0s\npatches:\n  - { name: verse, patch: a/verse.yaml }\n  - { name: solo, patch: b/solo.yaml }\n"
            .write(toFile: show, atomically: true, encoding: .utf8)
        return show
    }

    /// With verse in `a/` and solo in `b/`, a remote front end's relative
    /// path means the setlist's folder before and after a switch: a JSON
    /// `tap` over OSC after `next` records remote.wav beside show.yaml, not in b/.
    func testRemotePathsStayInTheSetlistsFolderAcrossASwitch() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShowInTwoFolders(folder)
        let port = try OSCRunTests.freeUDPPort()
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet", "--osc", "\(port)"], console: true)
        XCTAssertTrue(run.waitForTap(folder.appendingPathComponent("a/take.wav").path, seconds: 0.3), run.stderr)
        run.type("next")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("setlist: playing solo (2)") }, run.stdout + run.stderr)
        let client = try Tools.run("python3", ["-c", OSCRunTests.clientStart + """
            send("/fxhost/json", '{"v": 1, "cmd": "tap", "at": "main", "file": "remote.wav"}')
            reply()
            """, "\(port)"])
        XCTAssertEqual(client.status, 0, client.stderr)
        let reply = OSCRunTests.replies(client.stdout).first.flatMap { ($0.last as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] } }
        XCTAssertEqual(reply?["ok"] as? Bool, true, client.stdout)
        let remote = folder.appendingPathComponent("remote.wav").path
        XCTAssertTrue(run.waitForTap(remote, seconds: 0.1), "remote.wav beside show.yaml: \(run.stdout)\(run.stderr)")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: remote))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("b/remote.wav").path))
    }

    /// verse lives in `a/` and solo in `b/`, each tapping `main` to its own
    /// folder's take.wav. After `next`, `status --json` has a/take.wav
    /// finished and b/take.wav recording: the old patch's tap is known as
    /// its own (resolved from a/), not kept on as if typed at the console.
    func testATapOfAPatchInAnotherFolderEndsWithIt() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShowInTwoFolders(folder)
        let first = folder.appendingPathComponent("a/take.wav").path, second = folder.appendingPathComponent("b/take.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(first, seconds: 0.3), run.stderr)
        run.type("next")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("setlist: playing solo (2)") }, run.stdout + run.stderr)
        let before = LiveRun.prettyJSONDocuments(in: run.stdout).count
        run.type("status --json")
        XCTAssertTrue(eventually(within: 60) { LiveRun.prettyJSONDocuments(in: run.stdout).count > before }, run.stdout)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let status = LiveRun.prettyJSONDocuments(in: run.stdout).dropFirst(before).first ?? ""
        let taps = ((try? JSONSerialization.jsonObject(with: Data(status.utf8))) as? [String: Any])?["taps"] as? [[String: Any]] ?? []
        func state(_ file: String) -> String? {
            taps.last { ($0["file"] as? String).map { URL(fileURLWithPath: $0).standardizedFileURL.path } == URL(fileURLWithPath: file).standardizedFileURL.path }?["state"] as? String
        }
        XCTAssertEqual(state(second), "recording", "\(taps)")
        XCTAssertNotEqual(state(first), "recording", "verse's take goes on after the switch: \(taps)")
    }

    /// solo.yaml is edited mid-show to drop `midi-control:` (another MIDI
    /// port than the run made): `next` is refused with the setlist's
    /// sentence, and verse plays on (the take stays one run at 0.5).
    func testAPatchEditedMidShowToOtherPortsIsRefused() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShow(folder)
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.3), run.stderr)
        let solo = folder.appendingPathComponent("solo.yaml").path
        try String(contentsOfFile: solo, encoding: .utf8).replacingOccurrences(of: "midi-control:\n", with: "")
            .write(toFile: solo, atomically: true, encoding: .utf8)
        run.type("next")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("`midi-control:`'s `input` and `output` differ from the first patch's") },
                      run.stderr)
        XCTAssertTrue(run.waitForTap(take, seconds: 1), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("setlist: playing solo"), run.stdout)
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.map(\.value), [0.5], "verse plays on: \(runs.map { ($0.value, $0.count) })")
    }

    /// `learn amp gain` waits on verse when `next` switches to solo (which
    /// has no `amp`): the switch announces `unmapped amp:gain` (the waiting
    /// learn went with verse), and after a controller moved, `map` lists
    /// nothing mapped and no learn waiting.
    func testALearnWaitingGoesWithTheOldPatch() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShow(folder)
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.3), run.stderr)
        run.type("learn amp gain")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("learning amp:gain") }, run.stdout + run.stderr)
        run.type("next")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("setlist: playing solo (2)") }, run.stdout + run.stderr)
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("unmapped amp:gain") }, run.stdout + run.stderr)
        try MIDISender.send([.controller(7, value: 100)], server: server.name, to: "fxhost:midi_control")
        run.type("map")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("  nothing mapped") || run.stdout.contains("cc: 7") }, run.stdout)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("learning amp:gain: move a controller"), "the learn outlived verse: \(run.stdout)")
        XCTAssertFalse(run.stdout.contains("to: amp:gain"), "the learn outlived verse: \(run.stdout)")
    }

    /// A node that is the same plugin under the same name in both patches
    /// keeps its instance: the switch is no graph edit (nothing is
    /// announced as reloaded), only solo's value sent to it, and the take
    /// goes from 0.5 to 0.5 × 0.501187 with no gap. `save` then writes the
    /// value set since into solo.yaml, and neither verse.yaml nor the setlist.
    func testAPluginInBothPatchesKeepsItsInstanceAndTakesTheNewValue() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let show = try Self.writeShow(folder, soloNode: "amp")
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", show, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.5), run.stderr)
        run.type("next")
        XCTAssertTrue(run.waitForRuns(take, count: 2, lastAtLeast: 24_000), run.stderr)
        // `save` writes the patch playing over its own file; the setlist and the other patch stay as written.
        let verse = try String(contentsOf: folder.appendingPathComponent("verse.yaml"), encoding: .utf8)
        let showText = try String(contentsOfFile: show, encoding: .utf8)
        run.type("set amp gain -12")
        run.type("save")
        let solo = folder.appendingPathComponent("solo.yaml").path
        XCTAssertTrue(eventually(within: 60) {
            (try? String(contentsOfFile: solo, encoding: .utf8))?.contains("params: { gain: -12 }") == true
        }, run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertEqual(try String(contentsOf: folder.appendingPathComponent("verse.yaml"), encoding: .utf8), verse)
        XCTAssertEqual(try String(contentsOfFile: show, encoding: .utf8), showText)
        XCTAssertTrue(run.stdout.contains("setlist: playing solo (2)\namp:gain = -6.0\n"), run.stdout)
        XCTAssertFalse(run.stdout.contains("reloaded"), run.stdout)
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.count, 3, "0 dB, -6 dB, -12 dB: \(runs.map { ($0.value, $0.count) })")
        XCTAssertEqual(runs.first?.value, 0.5)
        XCTAssertEqual(runs.dropFirst().first?.value ?? 0, 0.5 * Self.minus6, accuracy: 1e-6)
    }
}
