import Foundation
import XCTest

/// A plugin that crashes or hangs the engine of `fxhost run` while a tap
/// records: the supervisor restarts the engine without it, and the take goes
/// on in the same file. Judged against arithmetic: the frames before the
/// crash are at most the blocks the plugin let pass (N × 256; those the
/// dead engine had not yet written are part of the gap), the level is the
/// constant fed through -6 dB (0.5 × 0.501187), and the one stretch of
/// silence starts where, and is as long as, the status reports. Before, the
/// run ended with the crash (exit 1) and the take stopped there.
final class SupervisedTakeRunTests: XCTestCase {
    /// -6 dB as a factor: 10^(-6/20).
    private static let minusSixDecibels: Float = 0.501_187_2

    func testATakeGoesOnInTheSameFileAcrossACrashWithOneGapOfTheLengthTheStatusReports() throws {
        let (run, folder) = try playThrough(CrashingPlugins.crashInRun, seconds: 5)
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: error:") }
        XCTAssertEqual(errors.count, 1, run.stderr)
        XCTAssertTrue(errors.first?.hasPrefix("fxhost: error: node `bad` (Crashy Effect) crashed in run() (SIGSEGV); "
                                              + "the engine restarted without it in ") == true, run.stderr)
        XCTAssertTrue(errors.first?.contains(" s; `restore bad` tries it again; the backtrace is in \(folder.path)/fxhost-crash-") == true,
                      run.stderr)
        try assertOneTakeWithOneGap(run, folder, framesBefore: 200 * 256)
    }

    /// A plugin stuck in run() is found by the engine's hang watch (no
    /// cycle for 2 s while the server plays on), named as a crash is, and
    /// the take goes on after a gap of at least those 2 s.
    func testAHangIsHandledAsACrashAndTheTakeGoesOn() throws {
        let (run, folder) = try playThrough(CrashingPlugins.spinInRun, seconds: 7)
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: error:") }
        XCTAssertEqual(errors.count, 1, run.stderr)
        XCTAssertTrue(errors.first?.hasPrefix("fxhost: error: node `bad` (Spinning Effect) hung in run() "
                                              + "(no cycle completed for 2 s); the engine restarted without it in ") == true,
                      run.stderr)
        // The backtrace is the stuck thread's own: the plugin's library is on it.
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("fxhost-crash-") }
        XCTAssertEqual(logs.count, 1, "\(logs)")
        let log = try String(contentsOfFile: folder.appendingPathComponent(logs.first ?? "none").path, encoding: .utf8)
        XCTAssertTrue(log.contains("Backtrace of the thread that hung"), log)
        XCTAssertTrue(log.contains("libcrashy.so"), log)
        let gap = try assertOneTakeWithOneGap(run, folder, framesBefore: 200 * 256)
        XCTAssertGreaterThanOrEqual(gap, 2 * 48_000, "the 2 s without a cycle are in the gap")
    }

    /// Runs a constant 0.5 through `plugin` (which fails after 200 blocks
    /// of 256 frames), a -6 dB gain and an output, tapping the gain.
    private func playThrough(_ plugin: String, seconds: Int) throws -> (LiveRun, URL) {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try Audio.constant([0.5], frames: 48_000 * 30).write(path("dc.wav"))
        try """
        fxhost: 1
        nodes:
          dc:  { file: dc.wav }
          bad: { plugin: "\(plugin)", params: { after: 200 } }
          g:   { gain: -6 }
          out: { output: 1 }
        chain: [dc, bad, g, out]
        taps:
          - { at: g, file: take.wav }
        """.write(toFile: path("crash.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("crash.yaml"), "--server", server.name, "--no-connect", "--quiet", "--json",
                               "--duration", "\(seconds)s"],
                              environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        addTeardownBlock { _ = server }
        return (run, folder)
    }

    /// One take, `take.wav` (no numbered second one): `framesBefore` frames
    /// of the constant, one stretch of silence of the length `run --json`
    /// reports, then the constant again (the culprit bypassed passes it
    /// through). Returns the gap's length in frames.
    @discardableResult
    private func assertOneTakeWithOneGap(_ run: LiveRun, _ folder: URL, framesBefore: Int) throws -> Int {
        let takes = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("take") }
        XCTAssertEqual(takes, ["take.wav"])
        let closing = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        let crashes = closing["crashes"] as? [[String: Any]] ?? []
        XCTAssertEqual(crashes.count, 1, run.stdout)
        XCTAssertEqual(crashes.first?["node"] as? String, "bad")
        XCTAssertEqual(crashes.first?["leftOut"] as? Bool, true)
        XCTAssertEqual(closing["leftOut"] as? [String], ["bad"])
        let taps = closing["taps"] as? [[String: Any]] ?? []
        XCTAssertEqual(taps.count, 1, run.stdout)
        let gaps = taps.first?["gaps"] as? [[String: Any]] ?? []
        XCTAssertEqual(gaps.count, 1, run.stdout)
        let gapFrames = gaps.first?["frames"] as? Int ?? -1
        let gapStart = gaps.first?["atSeconds"] as? Double ?? -1

        let level = 0.5 * Self.minusSixDecibels
        let samples = try Audio.read(folder.appendingPathComponent("take.wav").path).channels.first ?? []
        let runs = LiveRunTests.runs(of: samples)
        XCTAssertEqual(runs.count, 3, "the constant, one silence, the constant: \(runs.prefix(6))")
        guard runs.count == 3 else { return gapFrames }
        XCTAssertEqual(runs[0].value, level, accuracy: 1e-6)
        XCTAssertLessThanOrEqual(runs[0].count, framesBefore, "no more than the plugin let through")
        XCTAssertEqual(Double(runs[0].count) / 48_000, gapStart, accuracy: 1e-9, "the silence starts where the status says")
        XCTAssertEqual(runs[1].value, 0)
        XCTAssertEqual(runs[1].count, gapFrames, "the silence is as long as the status says")
        XCTAssertEqual(runs[2].value, level, accuracy: 1e-6)
        XCTAssertGreaterThan(runs[2].count, 48_000, "the take went on after the restart")
        return gapFrames
    }
}
