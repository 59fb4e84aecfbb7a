import Foundation
import Glibc
import TestSupport
import XCTest

/// A plugin's own LV2 state, which no parameter shows, comes back after a
/// restart from its last snapshot. The test peak hold (Tests/TestPlugin/peak_hold.c)
/// outputs the largest |input| it has seen. A JACK client of the test's own
/// (python's JACK-Client) plays 0.8, then 0.2; then another node crashes
/// the engine. Restored, the hold's output in the take is 0.8 again; a new
/// plugin state would hold what it hears now, 0.2. The crash record says
/// which node's state was restored, and the private folder the snapshots
/// lived in is gone once the run ends.
final class SupervisedPluginStateRunTests: XCTestCase {
    func testAPeakHoldsStateIsRestoredAfterAnotherNodeCrashes() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try PeakHoldPlugin.install(in: plugins)

        let level = Process()
        let command = JackServerProcess.launchCommand(executable: "/usr/bin/python3", arguments: ["-c", Self.levelClient, server.name])
        level.executableURL = URL(fileURLWithPath: command[0])
        level.arguments = Array(command.dropFirst())
        let levelInput = Pipe()
        level.standardInput = levelInput
        let levelOutput = folder.appendingPathComponent("level.log")
        _ = FileManager.default.createFile(atPath: levelOutput.path, contents: nil)
        level.standardOutput = try FileHandle(forWritingTo: levelOutput)
        level.standardError = level.standardOutput
        try level.run()
        defer {
            level.terminate()
            level.waitUntilExit()
        }
        func levelSaid() -> String { (try? String(contentsOf: levelOutput, encoding: .utf8)) ?? "" }
        XCTAssertTrue(eventually(within: 30) { levelSaid().contains("ready") || !level.isRunning },
                      "python's JACK-Client (scripts/install-deps.sh) must be installed: \(levelSaid())")
        XCTAssertTrue(levelSaid().contains("ready"), levelSaid())

        try """
        fxhost: 1
        nodes:
          in:   { input: [level:out] }
          hold: { plugin: "\(PeakHoldPlugin.uri)" }
          bad:  { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 1000000 } }
          out:  { output: 1 }
        chain: [in, hold, bad, out]
        taps:
          - { at: hold, file: take.wav }
        """.write(toFile: path("hold.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("hold.yaml"), "--server", server.name, "--quiet", "--json", "--duration", "120s"],
                              console: true, environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        func last() -> Float? { (try? Audio.read(path("take.wav")))?.channels.first?.last }
        XCTAssertTrue(eventually(within: 60) { last() == 0.8 }, "the hold hears 0.8: \(String(describing: last()))")

        // The snapshot holding 0.8 is in the supervisor's private folder (0700).
        func stateFolders() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.hasPrefix("fxhost-state-") }
        }
        XCTAssertEqual(stateFolders().count, 1)
        let stateFolder = path(stateFolders().first ?? "none")
        var info = stat()
        XCTAssertEqual(stat(stateFolder, &info), 0)
        XCTAssertEqual(info.st_mode & 0o777, 0o700)
        func snapshotHolds(_ text: String) -> Bool {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: stateFolder)) ?? []
            return names.contains { name in
                name.hasPrefix("node-hold-") && name.hasSuffix(".lv2") && !name.contains(".lv2.")
                    && ((try? String(contentsOfFile: stateFolder + "/" + name + "/state.ttl", encoding: .utf8))?.contains(text) ?? false)
            }
        }
        XCTAssertTrue(eventually(within: 30) { snapshotHolds(PeakHoldPlugin.heldKey) && snapshotHolds("0.8") })

        levelInput.fileHandleForWriting.write(Data("0.2\n".utf8))
        XCTAssertTrue(eventually(within: 30) { levelSaid().contains("level 0.2") }, levelSaid())
        run.type("set bad after 0")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("the engine restarted without it") }, run.stderr)
        // The take goes on after the gap: its newest frames are the restarted engine's.
        let framesAtRestart = (try? Audio.read(path("take.wav")).frames) ?? 0
        XCTAssertTrue(eventually(within: 60) { ((try? Audio.read(path("take.wav")).frames) ?? 0) > framesAtRestart + 48_000 })
        XCTAssertEqual(last(), 0.8, "the held peak came back; a fresh hold would give the 0.2 it hears now")

        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let closing = try JSONSerialization.jsonObject(with: Data((LiveRun.prettyJSONDocuments(in: run.stdout).last ?? "{}").utf8))
            as? [String: Any] ?? [:]
        let crashes = closing["crashes"] as? [[String: Any]] ?? []
        XCTAssertEqual(crashes.count, 1, run.stdout)
        XCTAssertEqual(crashes.first?["node"] as? String, "bad")
        let restored = crashes.first?["restoredState"] as? [[String: Any]] ?? []
        XCTAssertEqual(restored.map { $0["node"] as? String }, ["hold"], "the hold's state, not the culprit's: \(run.stdout)")
        XCTAssertGreaterThanOrEqual(restored.first?["ageSeconds"] as? Double ?? -1, 0)
        XCTAssertEqual(stateFolders(), [], "the snapshots' folder is removed at the end of the run")
    }

    /// A plugin that crashes in its state save(), which the engine calls
    /// for a snapshot about a second after it starts, is named as a crash
    /// in any other call is, and left out; while it is out its save() is
    /// not called again, so the engine does not crash once a second after:
    /// two seconds of the take after the restart hold no second crash.
    /// `restore hold` plays it, and snapshots it, again: it crashes again.
    func testACrashInStateSaveNamesTheNodeAndItsSaveIsNotCalledWhileItIsLeftOut() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = folder.appendingPathComponent("lv2")
        try PeakHoldPlugin.install(in: plugins)
        try Audio.constant([0.5], frames: 48_000 * 60).write(path("dc.wav"))
        try """
        fxhost: 1
        nodes:
          dc:   { file: dc.wav }
          hold: { plugin: "\(PeakHoldPlugin.crashInSave)" }
          out:  { output: 1 }
        chain: [dc, hold, out]
        taps:
          - { at: hold, file: take.wav }
        """.write(toFile: path("save.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("save.yaml"), "--server", server.name, "--no-connect", "--quiet", "--json",
                               "--duration", "120s"],
                              console: true, environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        func crashLines() -> [String] { run.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("fxhost: error:") } }
        XCTAssertTrue(eventually(within: 60) { crashLines().count == 1 }, run.stderr)
        XCTAssertTrue(crashLines().first?.hasPrefix("fxhost: error: node `hold` (Crashy Save) crashed in its state save() (SIGSEGV); "
                                                    + "the engine restarted without it in ") ?? false, run.stderr)
        let framesAtRestart = (try? Audio.read(path("take.wav")).frames) ?? 0
        XCTAssertTrue(eventually(within: 60) { ((try? Audio.read(path("take.wav")).frames) ?? 0) > framesAtRestart + 2 * 48_000 })
        XCTAssertEqual(crashLines().count, 1, "no crash after the restart: \(run.stderr)")
        // Left out, the hold passes its input through: the constant plays on.
        XCTAssertEqual((try? Audio.read(path("take.wav")))?.channels.first?.last, 0.5)
        // Restored, it is snapshotted again, and crashes again in save().
        run.type("restore hold")
        XCTAssertTrue(eventually(within: 60) { crashLines().count == 2 }, run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let closing = try JSONSerialization.jsonObject(with: Data((LiveRun.prettyJSONDocuments(in: run.stdout).last ?? "{}").utf8))
            as? [String: Any] ?? [:]
        let crashes = closing["crashes"] as? [[String: Any]] ?? []
        XCTAssertEqual(crashes.map { $0["call"] as? String }, ["its state save()", "its state save()"], run.stdout)
        XCTAssertEqual(closing["leftOut"] as? [String], ["hold"])
    }

    /// A plugin whose restore() crashes on its own snapshot stops the new
    /// engine as it starts, which would end the run: the supervisor starts
    /// it once more without the snapshots, and says so in a warning.
    func testARestartThatCrashesRestoringASnapshotGoesOnWithoutSnapshots() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try PeakHoldPlugin.install(in: plugins)
        try Audio.constant([0.5], frames: 48_000 * 60).write(path("dc.wav"))
        try """
        fxhost: 1
        nodes:
          dc:   { file: dc.wav }
          hold: { plugin: "\(PeakHoldPlugin.crashInRestore)" }
          bad:  { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 1000000 } }
          out:  { output: 1 }
        chain: [dc, hold, bad, out]
        taps:
          - { at: bad, file: take.wav }
        """.write(toFile: path("restore.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("restore.yaml"), "--server", server.name, "--no-connect", "--quiet", "--json",
                               "--duration", "120s"],
                              console: true, environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        func last() -> Float? { (try? Audio.read(path("take.wav")))?.channels.first?.last }
        XCTAssertTrue(eventually(within: 60) { last() == 0.5 })
        XCTAssertTrue(eventually(within: 30) { Self.snapshot(of: "hold", in: folder)?.contains(PeakHoldPlugin.heldKey) ?? false })
        run.type("set bad after 0")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("the engine restarted without it") }, run.stderr)
        XCTAssertTrue(eventually(within: 30) {
            run.stderr.contains("crashed in its state restore() (SIGSEGV)") && run.stderr.contains("it starts without them")
        }, run.stderr)
        let framesAtRestart = (try? Audio.read(path("take.wav")).frames) ?? 0
        XCTAssertTrue(eventually(within: 60) { ((try? Audio.read(path("take.wav")).frames) ?? 0) > framesAtRestart + 48_000 })
        XCTAssertEqual(last(), 0.5, "the hold holds 0.5 again, from what it hears")
        guard run.waitForExit(seconds: 0) == nil else { return XCTFail("the run ended: \(run.stderr)") }
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let closing = try JSONSerialization.jsonObject(with: Data((LiveRun.prettyJSONDocuments(in: run.stdout).last ?? "{}").utf8))
            as? [String: Any] ?? [:]
        let crashes = closing["crashes"] as? [[String: Any]] ?? []
        XCTAssertEqual(crashes.map { $0["node"] as? String }, ["bad"], run.stdout)
        XCTAssertNil(crashes.first?["restoredState"], "nothing was restored")
    }

    /// The text of `node`'s snapshot in the run's state folder (in `folder`, its TMPDIR), if one was taken.
    private static func snapshot(of node: String, in folder: URL) -> String? {
        let files = FileManager.default
        for state in ((try? files.contentsOfDirectory(atPath: folder.path)) ?? []) where state.hasPrefix("fxhost-state-") {
            let stateFolder = folder.appendingPathComponent(state).path
            for name in (try? files.contentsOfDirectory(atPath: stateFolder)) ?? []
            where name.hasPrefix("node-\(node)-") && name.hasSuffix(".lv2") && !name.contains(".lv2.") {
                if let text = try? String(contentsOfFile: stateFolder + "/" + name + "/state.ttl", encoding: .utf8) { return text }
            }
        }
        return nil
    }

    /// Plays the level in argv[2] (default 0.8) on `level:out`; each line on
    /// stdin sets a new level, said back as "level X" once set.
    private static let levelClient = """
        import jack, sys
        client = jack.Client("level", servername=sys.argv[1], no_start_server=True)
        port = client.outports.register("out")
        level = [0.8]
        @client.set_process_callback
        def process(frames):
            samples, value = memoryview(port.get_buffer()).cast("f"), level[0]
            for index in range(frames):
                samples[index] = value
        client.activate()
        print("ready", flush=True)
        for line in sys.stdin:
            level[0] = float(line)
            print("level", line.strip(), flush=True)
        client.deactivate()
        client.close()
        """
}
