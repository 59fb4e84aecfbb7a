import Foundation
import HostCore
import JackIO
import TestSupport
import XCTest

/// MIDI clock in and out of `fxhost run`, on a private dummy server at
/// 48 kHz, with JACK clients no one here wrote (python's JACK-Client). The
/// oracle is arithmetic: 24 pulses a quarter note, so pulses 800 frames
/// apart are a beat every 19200 frames, 48000 × 60 / 19200 = 150 bpm; at
/// 120 bpm a beat is 24000 frames and a pulse 1000.
final class MIDIClockRunTests: XCTestCase {
    /// A clock of start (0xFA) and pulses (0xF8) every 800 frames at exact
    /// frames: eg-metro's clicks in a take move from 32000 frames apart (the
    /// patch's 90 bpm) to 19200 ± 1 (less whole cycles an xrun left out of
    /// the take, see `judgeClockIn`); `status --json` says 150 bpm from the
    /// clock, and `tempo` is refused. Stop (0xFC) stops the clicks; start
    /// again with its pulses (beat 0 falls on the first) brings them back,
    /// still 19200 apart (the last tempo is held after the pulses end).
    func testPulsesEvery800FramesGiveClicksEvery19200AndStartAndStopMoveTheTransport() throws {
        let (clicks, stopped, restarted, skipped) = try clockInRun()
        try judgeClockIn(clicks: clicks, stopped: stopped, restarted: restarted, skipped: skipped)
    }

    /// One run of the clock-in scenario above: the take's path, its length at
    /// the stop and at the second start, and the frames its tap counted as
    /// skipped (cycles the server ran without fxhost) while the clock played.
    private func clockInRun() throws -> (clicks: String, stopped: Int, restarted: Int, skipped: Int) {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        let clicks = folder.appendingPathComponent("clicks.wav").path
        try """
        fxhost: 1
        tempo: 90
        clock: { input: [] }
        nodes:
          metro: { plugin: http://lv2plug.in/plugins/eg-metro }
          main: { output: 1 }
        chain: [metro, main]
        taps:
          - { at: metro, file: clicks.wav }
        """.write(toFile: folder.appendingPathComponent("metro.yaml").path, atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", folder.appendingPathComponent("metro.yaml").path, "--server", server.name, "--quiet"],
                              console: true)
        XCTAssertTrue(run.waitForTap(clicks, seconds: 2), run.stderr)
        func status() -> LiveStatus? {
            let before = LiveTapPauseRunTests.statuses(in: run.stdout).count
            run.type("status --json")
            guard eventually(within: 30, { LiveTapPauseRunTests.statuses(in: run.stdout).count > before }) else { return nil }
            return LiveTapPauseRunTests.statuses(in: run.stdout).last
        }
        func transport() -> LiveStatus.Transport? { status()?.transport }
        // Frames skipped at the start (the server ordering its graph anew) are not the measurement's.
        let first = status()
        XCTAssertEqual(first?.transport?.source, "fxhost", "no clock message yet")

        // 12 beats of clock.
        let pulses = [(frame: 0, message: MIDISender.Message.raw([0xFA]))]
            + (0..<(12 * 24)).map { (frame: $0 * 800, message: MIDISender.Message.raw([0xF8])) }
        try TimedMIDISender.send(pulses, server: server.name, to: "fxhost:clock_in", triesWhenLate: 5)
        let following = transport()
        XCTAssertEqual(following?.source, "clock", run.stdout)
        XCTAssertEqual(following?.beatsPerMinute, 150, "48000 × 60 / (24 × 800), exactly")
        XCTAssertEqual(following?.rolling, true)
        run.type("tempo 100")
        XCTAssertTrue(eventually(within: 30) {
            (run.stdout + run.stderr).contains("the MIDI clock followed sets the tempo (150 bpm now); change it there")
        }, run.stdout + run.stderr)

        try TimedMIDISender.send([(0, .raw([0xFC]))], server: server.name, to: "fxhost:clock_in")
        XCTAssertEqual(transport()?.rolling, false, run.stdout)
        // Four seconds stopped (the take's file may lag the callback: the first second is not judged).
        let stopped = LiveRun.frames(clicks)
        XCTAssertTrue(eventually(within: 60) { LiveRun.frames(clicks) >= stopped + 4 * 48_000 }, run.stderr)
        let restarted = LiveRun.frames(clicks)
        let again = [(frame: 0, message: MIDISender.Message.raw([0xFA]))]
            + (0..<(2 * 24)).map { (frame: $0 * 800, message: MIDISender.Message.raw([0xF8])) }
        try TimedMIDISender.send(again, server: server.name, to: "fxhost:clock_in", triesWhenLate: 5)
        XCTAssertEqual(transport()?.rolling, true, run.stdout)
        XCTAssertTrue(eventually(within: 60) { LiveRun.frames(clicks) >= restarted + 5 * 19_200 + 48_000 }, run.stderr)
        let skipped = (status()?.taps.first?.skippedFrames ?? 0) - (first?.taps.first?.skippedFrames ?? 0)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        return (clicks, stopped, restarted, skipped)
    }

    /// An xrun leaves its cycles out of the take (its tap counts them as
    /// skipped), and the transport is placed on the clock's next pulse: the
    /// interval around it is off by those whole cycles (256 frames). Every
    /// interval is 19200 ± 1 but for such cycles, no more than were skipped.
    private func judgeClockIn(clicks: String, stopped: Int, restarted: Int, skipped: Int) throws {
        let onsets = TimePositionRenderTests.clickOnsets(try Audio.read(clicks).channels[0])
        let before = onsets.filter { $0 < stopped }, after = onsets.filter { $0 >= restarted }
        func intervals(_ onsets: [Int]) -> [Int] { zip(onsets.dropFirst(), onsets).map { $0 - $1 } }
        XCTAssertEqual(intervals(before).first, 32_000, "90 bpm before the clock: \(onsets)")
        // Settled: the last eight beats before the stop (12 from the clock, then held).
        let settled = intervals(before).suffix(8)
        XCTAssertEqual(settled.count, 8, "\(onsets)")
        func cyclesOff(_ interval: Int) -> Int? {
            let deficit = abs(19_200 - interval), cycles = (deficit + 128) / 256
            return abs(deficit - cycles * 256) <= 1 ? cycles * 256 : nil
        }
        let offs = (Array(settled) + intervals(after)).map(cyclesOff)
        XCTAssertTrue(settled.allSatisfy { cyclesOff($0) != nil }, "150 bpm from the clock: \(Array(settled)) in \(onsets)")
        XCTAssertEqual(onsets.filter { $0 >= stopped + 48_000 && $0 < restarted }, [], "stopped: no clicks, \(onsets)")
        XCTAssertGreaterThanOrEqual(after.count, 5, "\(onsets)")
        XCTAssertTrue(intervals(after).allSatisfy { cyclesOff($0) != nil }, "started again at the held 150 bpm: \(after)")
        XCTAssertLessThanOrEqual(offs.compactMap { $0 }.reduce(0, +), skipped,
                                 "off only by cycles the tap skipped: \(Array(settled)), \(intervals(after)), \(skipped) skipped")
    }

    /// `clock: { output: … }` at 120 bpm: a JACK MIDI input sees a pulse
    /// (0xF8) every 1000 frames exactly, then after `tempo 150` every 800 (one
    /// interval between, where the tempo changed); `transport stop` sends a
    /// stop (0xFC) and no pulse follows; `transport start` sends the song
    /// position and continue (0xF2, 0xFB), and pulses every 800 frames again.
    func testTheTransportsClockIsSentAtExactFrames() throws {
        // An xrun leaves the transport, which counts the frames it plays, a cycle behind (one longer
        // interval), or the receiver a cycle late: a run that fails with xruns is made again.
        let (run, note) = try retakingOnXruns({ attempt in
            let run = try clockOutRun(attempt: attempt)
            return ((run.messages, run.output), run.xruns)
        }, passes: { Self.clockOutFaults($0.0).isEmpty })
        XCTAssertEqual(Self.clockOutFaults(run.0), [], run.1 + note)
    }

    /// One run of the clock-out scenario above: what the receiver took, its
    /// text, and the xruns the run's status counted while it was measured.
    private func clockOutRun(attempt: Int) throws -> (messages: [(frame: Int, bytes: [Int])], output: String, xruns: Int) {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let receiver = try MIDIReceiver(server: server.name)
        defer { receiver.stop() }
        let folder = try Tools.temporaryFolder(#function + "-\(attempt)")
        try LiveRunTests.writeAmpPatch(folder, seconds: 60)
        let patch = folder.appendingPathComponent("amp.yaml").path
        try (String(contentsOfFile: patch, encoding: .utf8) + """

        tempo: 120
        clock: { output: [\(MIDIReceiver.port)] }
        """).write(toFile: patch, atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet"], console: true)
        func count(_ byte: Int) -> Int { receiver.messages.filter { $0.bytes == [byte] }.count }
        func xruns() -> Int {
            let before = LiveTapPauseRunTests.statuses(in: run.stdout).count
            run.type("status --json")
            XCTAssertTrue(eventually(within: 30) { LiveTapPauseRunTests.statuses(in: run.stdout).count > before }, run.stdout)
            return LiveTapPauseRunTests.statuses(in: run.stdout).last?.xruns ?? 0
        }
        XCTAssertTrue(eventually(within: 30) { count(0xF8) >= 40 }, receiver.output + run.stderr)
        // The xruns of the start (the server ordering its graph anew) are not the measurement's.
        let xrunsAtStart = xruns()
        run.type("tempo 150")
        let atChange = count(0xF8)
        XCTAssertTrue(eventually(within: 30) { count(0xF8) >= atChange + 40 }, receiver.output + run.stderr)
        run.type("transport stop")
        XCTAssertTrue(eventually(within: 30) { count(0xFC) == 1 }, receiver.output + run.stderr)
        run.type("transport start")
        XCTAssertTrue(eventually(within: 30) { count(0xFB) == 1 }, receiver.output + run.stderr)
        let atStart = count(0xF8)
        XCTAssertTrue(eventually(within: 30) { count(0xF8) >= atStart + 20 }, receiver.output + run.stderr)
        // `save` keeps the clock as the file wrote it, beside a value changed live.
        run.type("set amp gain -3")
        run.type("save")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("saved the running patch to \(patch)") }, run.stdout + run.stderr)
        let xrunsMeasured = xruns() - xrunsAtStart
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let saved = try PatchParser.parse(text: String(contentsOfFile: patch, encoding: .utf8), path: patch)
        XCTAssertEqual(saved.clock, MIDIClockPorts(outputs: [MIDIReceiver.port]))
        XCTAssertEqual(saved.node(named: "amp").flatMap { node -> ParameterValue? in
            guard case .plugin(let spec) = node.kind else { return nil }
            return spec.parameters.first { $0.symbol == "gain" }?.value
        }, .number(-3))
        return (receiver.messages, receiver.output, xrunsMeasured)
    }

    /// What the receiver took that is not the scenario's clock, each in a sentence; none when all is.
    private static func clockOutFaults(_ messages: [(frame: Int, bytes: [Int])]) -> [String] {
        guard let stop = messages.firstIndex(where: { $0.bytes == [0xFC] }),
              let resume = messages.firstIndex(where: { $0.bytes == [0xFB] }), resume > stop else { return ["no stop, then continue"] }
        var faults: [String] = []
        func expect(_ holds: Bool, _ what: @autoclosure () -> String) { if !holds { faults.append(what()) } }
        func pulseIntervals(_ range: Range<Int>) -> [Int] {
            let frames = messages[range].filter { $0.bytes == [0xF8] }.map(\.frame)
            return zip(frames.dropFirst(), frames).map { $0 - $1 }
        }
        // The first few after the connection are not judged: while JACK orders
        // the graph anew, the receiver may run before fxhost once and take
        // its pulse a cycle late.
        let rolling = Array(pulseIntervals(0..<stop).dropFirst(4))
        // 1000s, at most one interval between, then 800s.
        let thousands = rolling.prefix { $0 == 1_000 }
        let rest = rolling.dropFirst(thousands.count)
        let eights = rest.drop { $0 != 800 }
        expect(thousands.count >= 30, "30 or more intervals of 1000: \(rolling)")
        expect(rest.count - eights.count <= 1 && rest.prefix(rest.count - eights.count).allSatisfy { (800...1_000).contains($0) },
               "one interval of 800...1000 where the tempo changed: \(rolling)")
        expect(eights.count >= 30 && eights.allSatisfy { $0 == 800 }, "30 or more of 800 then: \(rolling)")
        expect(messages[stop..<resume].allSatisfy { $0.bytes != [0xF8] }, "no pulse while stopped")
        expect(resume > 0 && messages[resume - 1].bytes.first == 0xF2 && messages[resume - 1].frame == messages[resume].frame,
               "the song position at the continue's frame: \(messages[max(resume - 1, 0)...].prefix(3))")
        let resumed = pulseIntervals(resume..<messages.count)
        expect(resumed.count >= 19 && resumed.allSatisfy { $0 == 800 }, "19 or more of 800 after the continue: \(resumed)")
        return faults
    }

    /// `fxhost check` names the clock's ports as `run` will connect them,
    /// in text and JSON, and refuses a misspelt key at its place.
    func testCheckShowsTheClockAndRefusesAMisspeltKey() throws {
        let folder = try Tools.temporaryFolder(#function)
        let good = folder.appendingPathComponent("good.yaml").path, bad = folder.appendingPathComponent("bad.yaml").path
        try "fxhost: 1\nclock: { input: [a:b], output: [] }\nnodes:\n  out: { output: 1 }\n"
            .write(toFile: good, atomically: true, encoding: .utf8)
        try "fxhost: 1\nclock: { inptu: [a:b] }\nnodes:\n  out: { output: 1 }\n".write(toFile: bad, atomically: true, encoding: .utf8)
        let text = try Tools.fxhost(["check", good])
        XCTAssertEqual(text.status, 0, text.stderr)
        XCTAssertTrue(text.stdout.contains("  MIDI clock in ← a:b\n  MIDI clock out → (connected to nothing)\n"), text.stdout)
        let json = try Tools.fxhost(["check", good, "--json"])
        XCTAssertEqual(json.status, 0, json.stderr)
        XCTAssertTrue(json.stdout.contains("\"MIDI clock in ← a:b\""), json.stdout)
        let refused = try Tools.run(Tools.fxhost, ["check", bad])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("bad.yaml:2:10: unknown key `inptu` in `clock` (did you mean `input`?)"), refused.stderr)
    }
}
