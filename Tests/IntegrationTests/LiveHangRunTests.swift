import Foundation
import XCTest

/// A plugin that spins forever in `run()` during `fxhost run`: the engine's
/// hang watch notices that no cycle completed for 2 s while the server
/// played on, and the stuck thread says so in one sentence naming the node,
/// as a crash does; exit status 1, the take kept. Before, the run went on
/// silent and exited 0 at the end of `--duration`.
final class LiveHangRunTests: XCTestCase {
    func testAPluginSpinningInRunIsNamedAndTheTakeIsKept() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        // A constant the plugin passes through until it spins: 200 blocks of
        // the server's 256 frames, 51,200 frames, about a second.
        try Audio.constant([0.25], frames: 48_000 * 10).write(path("dc.wav"))
        try """
        fxhost: 1
        nodes:
          dc:   { file: dc.wav }
          spin: { plugin: "\(CrashingPlugins.spinInRun)", params: { after: 200 } }
          out:  { output: 1 }
        chain: [dc, spin, out]
        taps:
          - { at: spin, file: take.wav }
        """.write(toFile: path("hang.yaml"), atomically: true, encoding: .utf8)
        // Without the watch the run would end here, 20 s in, with status 0.
        let run = try LiveRun(["run", path("hang.yaml"), "--server", server.name, "--no-connect", "--quiet",
                               "--duration", "20s"],
                              environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        XCTAssertEqual(run.waitForExit(seconds: 60), 1, run.stderr)
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: error:") }
        XCTAssertEqual(errors.count, 1, run.stderr)
        let expected = "fxhost: error: node `spin` (Spinning Effect) hung in run(): no cycle completed for 2 s; "
            + "every take is kept up to the hang; the backtrace is in \(folder.path)/fxhost-crash-"
        XCTAssertTrue(run.stderr.hasPrefix(expected), run.stderr)
        XCTAssertFalse(run.stderr.contains("Backtrace"), "no backtrace on the terminal: \(run.stderr)")
        // The backtrace is the stuck thread's own: the plugin's library is on it.
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("fxhost-crash-") }
        XCTAssertEqual(logs.count, 1, "\(logs)")
        let log = try String(contentsOfFile: path(logs.first ?? "none"), encoding: .utf8)
        XCTAssertTrue(log.contains("Backtrace of the thread that hung"), log)
        XCTAssertTrue(log.contains("libcrashy.so"), log)
        // The take reads, holds the constant up to the hang and nothing after it.
        let take = try Audio.read(path("take.wav"))
        let samples = take.channels.first ?? []
        XCTAssertGreaterThan(samples.count, 0)
        XCTAssertLessThanOrEqual(samples.count, 200 * 256)
        XCTAssertEqual(samples.filter { $0 != 0.25 }.count, 0, "every sample is the constant fed")
    }
}
