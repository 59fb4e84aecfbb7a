import Foundation
import JackIO
import XCTest

/// A plugin that crashes during a live `bounce`: jackd2 is wedged for good
/// when a client dies while it freewheels, so the engine stops at the crash,
/// the supervisor's own client takes the server out of freewheel, and only
/// then is the engine killed and restarted. Oracles: the server's own
/// freewheel notifications and cycle rate (an observer client), and the
/// files on disk. Before, fxhost died with the server freewheeling, and the
/// server played no cycle again.
final class SupervisedBounceRunTests: XCTestCase {
    func testACrashMidBounceLeavesTheServerPlayingAndTheEngineRestarted() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let (patch, plugins) = try CrashingPlugins.writeBounceCrashRig(in: folder)
        let observer = try ServerObserver(server: server.name)
        let run = try LiveRun(["run", patch, "--server", server.name, "--no-connect", "--quiet",
                               "--duration", "120s"], console: true,
                              environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        run.type("bounce mix.wav")
        XCTAssertTrue(eventually(within: 90) { run.stderr.contains("the engine restarted without it") }, run.stderr)
        XCTAssertEqual(observer.freewheelStarts, 1)
        XCTAssertTrue(observer.wait(timeout: 60, until: { observer.freewheelStops == 1 }),
                      "freewheel was never switched off: the server is stuck")
        XCTAssertTrue(observer.waitForCycleRate { abs($0 - 187.5) <= 187.5 * 0.5 }, "cycles at the realtime rate again")
        let newcomer = try ServerObserver(server: server.name)
        XCTAssertTrue(newcomer.waitForCycleRate { $0 > 0 }, "a new client plays")
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: error:") }
        XCTAssertEqual(errors.count, 2, run.stderr)
        XCTAssertTrue(errors.contains { $0.hasPrefix("fxhost: error: the bounce ended with the crash; nothing was written") },
                      run.stderr)
        XCTAssertTrue(errors.contains { $0.hasPrefix("fxhost: error: node `bad` (Crashy Effect) crashed in run() (SIGSEGV); "
                                                     + "the engine restarted without it in ") }, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("mix.wav") }, [],
                       "no bounce file, complete-looking or partial")
        // The restarted engine plays and takes commands.
        run.type("status --json")
        XCTAssertTrue(eventually(within: 30) { LiveRun.prettyJSONDocuments(in: run.stdout).count == 1 }, run.stdout)
        let status = try JSONSerialization.jsonObject(with: Data((LiveRun.prettyJSONDocuments(in: run.stdout).first ?? "{}").utf8))
            as? [String: Any] ?? [:]
        XCTAssertEqual(status["leftOut"] as? [String], ["bad"])
        XCTAssertEqual((status["crashes"] as? [[String: Any]])?.count, 1)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 30), 0, run.stderr)
    }
}
