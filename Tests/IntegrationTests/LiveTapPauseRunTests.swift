import Foundation
import HostCore
import JackIO
import XCTest

/// `tap pause` and `tap resume` typed into `fxhost run` on a private dummy
/// server. The source is a counter (frame k holds k + 1, exactly), tapped
/// twice: `take.wav` is paused for a while, `whole.wav` never is. The take
/// must be the counter in two contiguous runs, the paused stretch left out
/// (no silence in its place), and `status` must say which tap is paused.
final class LiveTapPauseRunTests: XCTestCase {
    /// A counter's step: frame k holds (k + 1) / 2^21, exact as a float for 349 s of frames.
    static let scale: Float = 2_097_152

    /// `patch.yaml` in `folder`: `counter.wav` (`seconds` long, frame k
    /// holding (k + 1) / `scale`) through a 0 dB gain `trim` to one output,
    /// tapped at `src` and at `trim`.
    static func writeCounterPatch(in folder: URL, seconds: Int, sourceTap: String, trimTap: String) throws {
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio(channels: [(0..<48_000 * seconds).map { Float($0 + 1) / scale }]).write(path("counter.wav"))
        try """
        fxhost: 1
        nodes:
          src: { file: counter.wav }
          trim: { gain: 0dB }
          main: { output: 1 }
        chain: [src, trim, main]
        taps:
          - { at: src, file: \(sourceTap) }
          - { at: trim, file: \(trimTap) }
        """.write(toFile: path("patch.yaml"), atomically: true, encoding: .utf8)
    }

    func testTapPauseAndResumeFromTheConsole() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeCounterPatch(in: folder, seconds: 20, sourceTap: "take.wav", trimTap: "whole.wav")

        let run = try LiveRun(["run", path("patch.yaml"), "--server", server.name, "--quiet", "--json"], console: true)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.3))
        run.type("tap pause")
        run.type("tap pause srcc")
        run.type("tap resume src")
        run.type("tap pause main")
        run.type("tap pause src")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("tap src → \(path("take.wav")): paused at ") },
                      run.stdout + run.stderr)
        run.type("tap pause src")
        run.type("status")
        run.type("status --json")
        XCTAssertTrue(eventually(within: 60) { Self.statuses(in: run.stdout).count == 1 }, run.stdout)
        let paused = try XCTUnwrap(Self.statuses(in: run.stdout).first)
        XCTAssertEqual(paused.taps.map(\.state), [.paused, .recording], "take.wav, whole.wav")
        XCTAssertEqual(paused.taps.map(\.recording), [true, true], "a paused tap's file is still open")
        XCTAssertNotNil(run.stdout.range(of: #"tap src \d+:\d\d\.\d paused"#, options: .regularExpression),
                        "the status line says the tap is paused: \(run.stdout)")

        // Half a second of the source plays while take.wav is paused.
        let wholeAtPause = LiveRun.frames(path("whole.wav"))
        XCTAssertTrue(eventually(within: 60) { LiveRun.frames(path("whole.wav")) >= wholeAtPause + 24_000 })
        run.type("tap resume src")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("recording again after") }, run.stdout)
        let takeAtResume = LiveRun.frames(path("take.wav"))
        XCTAssertTrue(eventually(within: 60) { LiveRun.frames(path("take.wav")) >= takeAtResume + 12_000 })
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        XCTAssertTrue(run.stderr.contains("usage: tap pause NODE[:PORT]"), run.stderr)
        XCTAssertTrue(run.stderr.contains("there is no node named `srcc` (did you mean `src`?)"), run.stderr)
        XCTAssertTrue(run.stderr.contains("the tap on `src` is recording, not paused, so there is nothing to resume"),
                      run.stderr)
        XCTAssertTrue(run.stderr.contains("`main` has no tap; the taps are on `src`, `trim`"), run.stderr)
        XCTAssertTrue(run.stderr.contains("the tap on `src` is already paused; `tap resume src` continues it"), run.stderr)

        // The closing status (run --json) follows the console's status --json.
        let statuses = Self.statuses(in: run.stdout)
        XCTAssertEqual(statuses.count, 2, run.stdout)
        let closing = try XCTUnwrap(statuses.last)
        XCTAssertEqual(closing.taps.map(\.state), [.finished, .finished])
        XCTAssertEqual(closing.taps.map(\.droppedFrames), [0, 0])
        XCTAssertEqual(closing.files.map(\.underrunFrames), [0], "the disk kept up, so silence would be the pause's")

        let take = try Audio.read(path("take.wav")).channels[0]
        let whole = try Audio.read(path("whole.wav")).channels[0]
        let takeStatus = try XCTUnwrap(closing.taps.first { $0.file == path("take.wav") })
        XCTAssertEqual(take.count, Int((takeStatus.seconds * 48_000).rounded()), "the reported time is the take's")
        XCTAssertEqual(Self.runs(of: whole).count, 1, "the tap never paused holds the counter unbroken")
        let runs = Self.runs(of: take)
        XCTAssertFalse(take.contains(0), "no silence in place of the pause")
        XCTAssertEqual(runs.count, 2, "recorded, paused, recorded: \(runs)")
        guard runs.count == 2 else { return }
        XCTAssertEqual(runs[0].lowerBound, 1)
        XCTAssertGreaterThanOrEqual(runs[1].lowerBound - runs[0].upperBound - 1, 12_000, "the paused stretch is left out")
        XCTAssertLessThanOrEqual(runs[1].upperBound, whole.count)
    }

    /// Contiguous runs of counter values (k, k + 1, ...).
    static func runs(of samples: [Float]) -> [ClosedRange<Int>] {
        let values = samples.map { Int(($0 * scale).rounded()) }
        guard var first = values.first else { return [] }
        var runs: [ClosedRange<Int>] = []
        for index in 1..<values.count where values[index] != values[index - 1] + 1 {
            runs.append(first...values[index - 1])
            first = values[index]
        }
        runs.append(first...values[values.count - 1])
        return runs
    }

    /// The pretty-printed JSON documents on stdout (a line "{" to a line "}"), as statuses.
    static func statuses(in output: String) -> [LiveStatus] {
        LiveRun.prettyJSONDocuments(in: output).compactMap { try? JSONDecoder().decode(LiveStatus.self, from: Data($0.utf8)) }
    }
}
