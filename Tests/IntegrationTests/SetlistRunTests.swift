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
    private static func writeShow(_ folder: URL, spillover: String = "0s") throws -> String {
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
        try patch("trim", -6).write(to: folder.appendingPathComponent("solo.yaml"), atomically: true, encoding: .utf8)
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
}
