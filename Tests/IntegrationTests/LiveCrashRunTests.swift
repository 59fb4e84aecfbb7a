import Foundation
import XCTest

/// A plugin that crashes `fxhost run` (the supervised engine that plays on
/// without it is still to come): one sentence naming the node, its plugin
/// and the call, exit status 1, and the take kept, readable, up to the
/// crash. Before, the process died of SIGSEGV with seconds of Swift
/// backtrace on the terminal.
final class LiveCrashRunTests: XCTestCase {
    func testACrashInRunIsNamedInOneSentenceAndTheTakeIsKept() throws {
        try crash(CrashingPlugins.crashInRun, named: "Crashy Effect")
    }

    /// A stack overflow on libjack's process thread reaches the report on an
    /// alternate signal stack of that thread's own.
    func testAStackOverflowInRunIsNamedToo() throws {
        try crash(CrashingPlugins.overflowInRun, named: "Deep Effect")
    }

    private func crash(_ plugin: String, named name: String) throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        // 200 blocks of the server's 256 frames pass before the crash: 51,200 frames.
        try """
        fxhost: 1
        nodes:
          in:  { input: 1 }
          bad: { plugin: "\(plugin)", params: { after: 200 } }
          out: { output: 1 }
        chain: [in, bad, out]
        taps:
          - { at: bad, file: take.wav }
        """.write(toFile: path("crash.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("crash.yaml"), "--server", server.name, "--no-connect", "--quiet",
                               "--duration", "60s"],
                              environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        XCTAssertEqual(run.waitForExit(seconds: 60), 1, run.stderr)
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: error:") }
        XCTAssertEqual(errors.count, 1, run.stderr)
        XCTAssertTrue(run.stderr.contains("node `bad` (\(name)) crashed in run() (SIGSEGV); every take is kept up to the crash"),
                      run.stderr)
        XCTAssertFalse(run.stderr.contains("Backtrace"), "no backtrace on the terminal: \(run.stderr)")
        // The take reads, and holds no more than the blocks before the crash.
        let take = try Audio.read(path("take.wav"))
        XCTAssertLessThanOrEqual(take.frames, 200 * 256)
    }
}
