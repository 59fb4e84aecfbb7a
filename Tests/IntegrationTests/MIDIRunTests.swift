import Foundation
import HostCore
import TestSupport
import XCTest

/// `fxhost run` with a patch's `midi-control:`, driven by a separate JACK
/// client written with PyPI's JACK-Client, on a private dummy server,
/// judged by a tap of the amplifier the controller moves.
final class MIDIRunTests: XCTestCase {
    /// CC 7 = 64 on `{ cc: 7, to: amp:gain, range: [-30, 0] }` takes eg-amp
    /// from 0 dB to -30 + 30 × 64/127 dB. The host glides a continuous
    /// parameter over about 20 ms (here 4 blocks of 256 frames, one value
    /// per block, each between the two), and at rest the take holds exactly
    /// the mapped level. The console echoes the change, `map` lists the
    /// mapping, and `scene` switches the patch's scene.
    func testAControllerMovesTheTappedLevelToTheRangesValue() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        let patch = folder.appendingPathComponent("amp.yaml").path
        try (String(contentsOfFile: patch, encoding: .utf8) + """

            midi-control:
              map:
                - { cc: 7, to: amp:gain, range: [-30, 0] }
            scenes:
              quiet: { amp: { gain: -20 } }
            """).write(toFile: patch, atomically: true, encoding: .utf8)
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.5), run.stderr)

        try MIDISender.send([.controller(7, value: 64)], server: server.name, to: "fxhost:midi_control")
        let decibels = -30 + 30 * 64.0 / 127
        let mapped = Float(0.5 * pow(10, decibels / 20))
        XCTAssertTrue(eventually(within: 60) {
            guard let samples = try? Audio.read(take).channels.first,
                  let last = LiveRunTests.runs(of: samples).last else { return false }
            return abs(last.value - mapped) <= 1e-6 && last.count >= 24_000
        }, run.stderr)
        run.type("map")
        run.type("scene quiet")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("scene quiet") }, run.stdout + run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        guard let quiet = runs.firstIndex(where: { abs($0.value - Float(0.5 * pow(10, -20.0 / 20))) <= 1e-6 }) else {
            return XCTFail("the scene's -20 dB never came: \(runs.map { ($0.value, $0.count) })")
        }
        let beforeScene = Array(runs[..<quiet])
        XCTAssertEqual(beforeScene.first?.value, 0.5)
        XCTAssertEqual(beforeScene.last.map { abs($0.value - mapped) <= 1e-6 }, true,
                       "at rest, exactly the mapped level: \(beforeScene.map { ($0.value, $0.count) })")
        let glide = beforeScene.dropFirst().dropLast()
        XCTAssertEqual(glide.count, 3, "a glide of 4 blocks (the last lands on the value): \(beforeScene.map { ($0.value, $0.count) })")
        for step in glide {
            XCTAssertEqual(step.count, 256, "one value per block")
            XCTAssertTrue(step.value < 0.5 && step.value > mapped, "each step between the two levels: \(step.value)")
        }
        XCTAssertEqual(glide.map(\.value), glide.map(\.value).sorted(by: >), "falling steadily")

        XCTAssertTrue(run.stdout.contains("amp:gain = -14.88"), "the console echoes the controller: \(run.stdout)")
        XCTAssertTrue(run.stdout.contains("{ cc: 7, to: amp:gain, range: [-30, 0] }"), "`map` lists it: \(run.stdout)")
    }

    /// `learn` maps a controller live; `save` writes it into the patch's
    /// `midi-control:` beside the mapping the file had, and leaves the rest
    /// of the file (comments, `scenes:`) as it was; the saved patch checks.
    func testSaveWritesALearnedMapping() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        let patch = folder.appendingPathComponent("amp.yaml").path
        let original = try String(contentsOfFile: patch, encoding: .utf8) + """

            # the controller
            midi-control:
              map:
                - { cc: 7, to: amp:gain, range: [-30, 0] }   # volume pedal
            scenes:
              quiet: { amp: { gain: -20 } }   # for the verses
            """
        try original.write(toFile: patch, atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(folder.appendingPathComponent("take.wav").path, seconds: 0.3), run.stderr)
        run.type("learn amp bypass")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("learning amp:bypass") }, run.stdout + run.stderr)
        try MIDISender.send([.controller(64, value: 0)], server: server.name, to: "fxhost:midi_control")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("mapped { cc: 64, to: amp:bypass") }, run.stdout + run.stderr)
        run.type("save")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("saved the running patch to \(patch)") },
                      run.stdout + run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        let saved = try String(contentsOfFile: patch, encoding: .utf8)
        let learned = try XCTUnwrap(run.stdout.split(separator: "\n").first { $0.hasPrefix("mapped { cc: 64") })
            .dropFirst("mapped ".count)
        XCTAssertTrue(saved.contains("    - { cc: 7, to: amp:gain, range: [-30, 0] }\n    - \(learned)"), saved)
        XCTAssertTrue(saved.contains("# the controller\n"), saved)
        XCTAssertTrue(saved.contains("  quiet: { amp: { gain: -20 } }   # for the verses"), "scenes as written: \(saved)")
        XCTAssertEqual(saved.components(separatedBy: "# the controller")[0], original.components(separatedBy: "# the controller")[0],
                       "the rest of the file unchanged")
        let check = try Tools.run(Tools.fxhost, ["check", patch])
        XCTAssertEqual(check.status, 0, check.stderr)
    }
}
