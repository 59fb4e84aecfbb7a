import Foundation
import HostCore
import JackIO
import TestSupport
import XCTest

/// Tap tempo in `fxhost run`, on a private dummy server at 48 kHz. The
/// oracle is arithmetic: taps 24000 frames apart are 0.5 s apart, 60 / 0.5 =
/// 120 bpm, and eg-metro (lv2-examples) then starts a click every beat,
/// 24000 frames apart in a take of it (at the patch's 90 bpm, 32000).
final class TapTempoRunTests: XCTestCase {
    /// A footswitch on `{ cc: 80, to: tempo:tap }`, played by python's
    /// JACK-Client at exact frames: presses (127) 24000 frames apart, each
    /// released (0) 1200 frames later, which is no tap. The host times each
    /// press by the frame it arrived at, so the tempo is exactly 120, as
    /// `status --json` and the console's echo say, and the take's clicks
    /// move from 32000 to exactly 24000 frames apart.
    func testAFootswitchTappingEvery24000FramesSetsExactly120AndTheMetronomeFollows() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try """
        fxhost: 1
        tempo: 90
        nodes:
          metro: { plugin: http://lv2plug.in/plugins/eg-metro }
          main: { output: 1 }
        chain: [metro, main]
        taps:
          - { at: metro, file: clicks.wav }
        midi-control:
          map:
            - { cc: 80, to: tempo:tap }
        """.write(toFile: path("metro.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("metro.yaml"), "--server", server.name, "--quiet"], console: true)
        // Three clicks at 90 bpm before the taps.
        XCTAssertTrue(run.waitForTap(path("clicks.wav"), seconds: 2), run.stderr)

        var presses: [(frame: Int, message: MIDISender.Message)] = []
        for beat in 0..<4 {
            presses.append((beat * 24_000, .controller(80, value: 127)))
            presses.append((beat * 24_000 + 1_200, .controller(80, value: 0)))
        }
        try TimedMIDISender.send(presses, server: server.name, to: "fxhost:midi_control")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("tempo 120 bpm") }, run.stdout + run.stderr)
        run.type("status --json")
        XCTAssertTrue(eventually(within: 30) { !LiveTapPauseRunTests.statuses(in: run.stdout).isEmpty }, run.stdout)
        XCTAssertEqual(LiveTapPauseRunTests.statuses(in: run.stdout).first?.transport?.beatsPerMinute, 120,
                       "60 / (72000 frames / 3 / 48000 per second), exactly")
        // Five beats at the new tempo after the echo.
        let framesAtTempo = LiveRun.frames(path("clicks.wav"))
        XCTAssertTrue(eventually(within: 60) { LiveRun.frames(path("clicks.wav")) >= framesAtTempo + 5 * 24_000 }, run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        let onsets = TimePositionRenderTests.clickOnsets(try Audio.read(path("clicks.wav")).channels[0])
        let intervals = zip(onsets.dropFirst(), onsets).map { $0 - $1 }
        XCTAssertEqual(Array(intervals.prefix(2)), [32_000, 32_000], "90 bpm before the taps: \(onsets)")
        XCTAssertEqual(Array(intervals.suffix(4)), [24_000, 24_000, 24_000, 24_000], "120 bpm after them: \(onsets)")
        XCTAssertFalse(run.stdout.contains("tempo tap"), "a controller's first tap is not echoed: \(run.stdout)")
    }

    /// `tempo tap` typed four times, a beat of 500 ms apart: the first answers
    /// that it counted a tap, the fourth sets the mean of three intervals. The
    /// host times each tap when it carries it out, so the delays of the
    /// console's thread and the supervisor's link are in it, and on a loaded
    /// machine they are tens of milliseconds: ±12 bpm is ±150 ms over the
    /// 1.5 s. (The exact arithmetic is judged with taps timed by their JACK
    /// frame, above.) An `oscsend` of `/fxhost/tempo/tap` counts a tap the
    /// same way, and after a pause of more than 2 s starts again.
    func testTempoTapTypedEveryHalfSecondGivesAbout120() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        let port = try OSCRunTests.freeUDPPort()
        let run = try LiveRun(["run", folder.appendingPathComponent("amp.yaml").path, "--server", server.name, "--quiet",
                               "--osc", "\(port)"], console: true)
        XCTAssertTrue(run.waitForTap(folder.appendingPathComponent("take.wav").path, seconds: 0.3), run.stderr)

        var start = Date()
        for beat in 0..<4 {
            // The rhythm played, not a wait for a result.
            Thread.sleep(until: start.addingTimeInterval(0.5 * Double(beat)))
            if beat == 0 { start = Date() }
            run.type("tempo tap")
        }
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("tempo tap 1: tap again for a tempo") }, run.stdout + run.stderr)
        XCTAssertTrue(eventually(within: 30) { run.stdout.components(separatedBy: " bpm\n").count >= 4 }, run.stdout + run.stderr)
        let fourthAnswered = Date()  // the host carried out the fourth tap before this
        let tempos = run.stdout.split(separator: "\n").compactMap { line -> Double? in
            guard line.hasPrefix("tempo "), line.hasSuffix(" bpm") else { return nil }
            return Double(line.dropFirst("tempo ".count).dropLast(" bpm".count))
        }
        XCTAssertEqual(tempos.count, 3, "a tempo from the second, third and fourth tap: \(run.stdout)")
        XCTAssertEqual(tempos.last ?? 0, 120, accuracy: 12, run.stdout)

        // OSC: after a pause of more than 2 s from the fourth tap as the host timed it, a tap starts a new count.
        Thread.sleep(until: fourthAnswered.addingTimeInterval(2.5))
        let sent = try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/tempo/tap"])
        XCTAssertEqual(sent.status, 0, "oscsend (liblo-tools) must be installed: \(sent.stderr)")
        XCTAssertTrue(eventually(within: 30) { run.stdout.components(separatedBy: "tempo tap 1: tap again").count == 3 },
                      run.stdout + run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }
}
