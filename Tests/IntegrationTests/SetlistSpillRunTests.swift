import Foundation
import HostCore
import XCTest

/// A setlist's spillover end to end on private dummy servers, with the
/// test peak hold (Tests/TestPlugin/peak_hold.c) as the ringing tail: fed
/// a constant 0.5 it outputs 0.5, and spilled (it hears silence) it holds
/// 0.5 for good, so whatever the spill reaches is 0.5 times the fade's gain
/// (unity, then linear to 0 over the last 0.5 s, then exactly 0).
/// verse: dc → hold → master (a 0 dB gain both patches have) → wet, and dc →
/// amp (0 dB) → dry; solo: master → wet with nothing into master, and dc →
/// trim (-6 dB) → dry, so `dry`'s runs show each switch's frame.
final class SetlistSpillRunTests: XCTestCase {
    private static let minus6 = Float(pow(10, -6.0 / 20))
    private static let rate = 48_000

    private struct Show {
        let folder: URL
        let plugins: URL
        var wet: String { folder.appendingPathComponent("wet.wav").path }
        var dry: String { folder.appendingPathComponent("dry.wav").path }
        var show: String { folder.appendingPathComponent("show.yaml").path }
    }

    private static func patch(_ nodes: String, _ chains: String) -> String {
        """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          wet: { output: 1 }
          dry: { output: 1 }
          master: { gain: 0dB }
        \(nodes)
        connect:
          - { from: master, to: wet }
        \(chains)
        taps:
          - { at: wet, file: wet.wav }
          - { at: dry, file: dry.wav }

        """
    }

    private static func soloText(trim: String) -> String {
        patch("  trim: { gain: \(trim) }", "  - { from: dc, to: trim }\n  - { from: trim, to: dry }")
    }

    private static func writeShow(spillover: Int) throws -> Show {
        let folder = try Tools.temporaryFolder()
        let plugins = folder.appendingPathComponent("plugins")
        try FileManager.default.createDirectory(at: plugins, withIntermediateDirectories: true)
        try PeakHoldPlugin.install(in: plugins)
        try Audio.constant([0.5], frames: rate * 60).write(folder.appendingPathComponent("dc.wav").path)
        try patch("""
              hold: { plugin: "\(PeakHoldPlugin.uri)" }
              amp: { gain: 0dB }
            """, """
              - { from: dc, to: hold }
              - { from: hold, to: master }
              - { from: dc, to: amp }
              - { from: amp, to: dry }
            """).write(to: folder.appendingPathComponent("verse.yaml"), atomically: true, encoding: .utf8)
        try soloText(trim: "-6dB").write(to: folder.appendingPathComponent("solo.yaml"), atomically: true, encoding: .utf8)
        let show = Show(folder: folder, plugins: plugins)
        try "fxhost-setlist: 1\nspillover: \(spillover)s\npatches:\n  - { name: verse, patch: verse.yaml }\n  - { name: solo, patch: solo.yaml }\n"
            .write(toFile: show.show, atomically: true, encoding: .utf8)
        return show
    }

    private static func start(_ show: Show, on server: JackServerProcess) throws -> LiveRun {
        try LiveRun(["run", show.show, "--server", server.name, "--quiet"], console: true,
                    environment: ["LV2_PATH": show.plugins.path, "TMPDIR": show.folder.path])
    }

    /// Where each of `dry`'s runs starts, and the wet take's one channel.
    private static func takes(_ show: Show) throws -> (switches: [Int], runs: [(value: Float, count: Int)], wet: [Float]) {
        let runs = LiveRunTests.runs(of: try Audio.read(show.dry).channels[0])
        let starts = runs.indices.map { runs.prefix($0).map(\.count).reduce(0, +) }
        return (Array(starts.dropFirst()), runs, try Audio.read(show.wet).channels[0])
    }

    /// The old patch's hold fed the shared `master`, not an output: it rings
    /// on through master for the spillover (0.5 until the fade, linear to 0)
    /// and is exactly 0 after, where it was cut dead at the switch before.
    func testATailIntoANodeBothPatchesShareRingsForTheSpillover() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let show = try Self.writeShow(spillover: 2)
        let run = try Self.start(show, on: server)
        XCTAssertTrue(run.waitForTap(show.dry, seconds: 1), run.stderr)
        run.type("next")
        XCTAssertTrue(run.waitForRuns(show.dry, count: 2, lastAtLeast: Self.rate * 3), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        let (switches, runs, wet) = try Self.takes(show)
        XCTAssertEqual(runs.map(\.value), [0.5, 0.5 * Self.minus6], "verse, then solo, no gap")
        guard let at = switches.first else { return }
        let rate = Self.rate, block = 256
        XCTAssertEqual(Set(wet[rate / 10..<at]), [0.5], "verse: the held 0.5 through master")
        XCTAssertEqual(Set(wet[at + block..<at + rate * 3 / 2 - block]), [0.5], "the spill rings on through master")
        XCTAssertEqual(Set(wet[at + 2 * rate + block..<wet.count]), [0], "and is exactly 0 after the spillover")
        // The fade's last half second: 0.5 times (end - n) / 0.5 s, the end known within a block.
        let slack = Float(block) / Float(rate / 2)
        let off = (at + rate * 3 / 2 + block..<at + 2 * rate - block).filter {
            abs(wet[$0] - 0.5 * Float(at + 2 * rate - $0) / Float(rate / 2)) > 0.5 * slack + 1e-6
        }
        XCTAssertEqual(off.prefix(3).map { $0 - at }, [], "frames after the switch off the linear fade")
    }

    /// Three switches inside one spillover: the first spill, still ringing,
    /// is the third's oldest, and is cut with a 10 ms linear fade, not
    /// dropped: the wet take (the first spill's 0.5 and the second verse's
    /// hold, 1.0, then that hold spilling alone, 0.5) moves at most 0.5 /
    /// 480 a frame across the third switch.
    func testAThirdSwitchFadesTheOldestSpillOutWithNoStep() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let show = try Self.writeShow(spillover: 8)
        let run = try Self.start(show, on: server)
        XCTAssertTrue(run.waitForTap(show.dry, seconds: 1), run.stderr)
        run.type("next")
        XCTAssertTrue(run.waitForRuns(show.dry, count: 2, lastAtLeast: 2_048), run.stderr)
        run.type("prev")
        XCTAssertTrue(run.waitForRuns(show.dry, count: 3, lastAtLeast: 2_048), run.stderr)
        run.type("next")
        XCTAssertTrue(run.waitForRuns(show.dry, count: 4, lastAtLeast: Self.rate), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        let (switches, runs, wet) = try Self.takes(show)
        XCTAssertEqual(runs.count, 4, "verse, solo, verse, solo: \(runs.map { ($0.value, $0.count) })")
        guard switches.count == 3 else { return }
        let rate = Self.rate, third = switches[2]
        XCTAssertLessThan(third - switches[0], rate * 6, "the three switches fell inside the first spillover")
        XCTAssertEqual(wet[third - 1], 1.0, "the first spill and the second verse's hold")
        XCTAssertEqual(Set(wet[third + rate / 10..<third + rate]), [0.5], "the first spill gone, the third ringing")
        // From a block after the second switch (where the second verse's hold comes in at once, as a patch's own node does).
        let steps = (max(third - rate / 10, switches[1] + 256)..<third + rate / 10).filter { abs(wet[$0 + 1] - wet[$0]) > 0.5 / 480 + 1e-5 }
        XCTAssertEqual(steps.map { $0 - third }, [], "frames (from the third switch) with a step past a 10 ms fade's")
    }

    /// A `reload` of solo during the spillover (trim now -12 dB) keeps the
    /// spill: wet stays 0.5 until the fade, the reload's frame being well inside it.
    func testAReloadDuringASpilloverKeepsTheTail() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let show = try Self.writeShow(spillover: 8)
        let run = try Self.start(show, on: server)
        XCTAssertTrue(run.waitForTap(show.dry, seconds: 1), run.stderr)
        run.type("next")
        XCTAssertTrue(run.waitForRuns(show.dry, count: 2, lastAtLeast: 2_048), run.stderr)
        try Self.soloText(trim: "-12dB").write(to: show.folder.appendingPathComponent("solo.yaml"), atomically: true,
                                               encoding: .utf8)
        run.type("reload")
        XCTAssertTrue(run.waitForRuns(show.dry, count: 3, lastAtLeast: Self.rate * 8), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        let (switches, runs, wet) = try Self.takes(show)
        XCTAssertEqual(runs.count, 3, "verse, solo, solo reloaded at -12 dB: \(runs.map { ($0.value, $0.count) })")
        guard switches.count == 2 else { return }
        let rate = Self.rate, at = switches[0]
        XCTAssertLessThan(switches[1] - at, rate * 6, "the reload fell inside the spillover, before its fade")
        XCTAssertEqual(Set(wet[at + 256..<at + rate * 15 / 2 - 256]), [0.5], "the spill rang on across the reload")
        XCTAssertEqual(Set(wet[at + 8 * rate + 256..<wet.count]), [0], "and is exactly 0 after the spillover")
    }
}
