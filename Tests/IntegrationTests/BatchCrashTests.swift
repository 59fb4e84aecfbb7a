import Foundation
import XCTest

/// A batch renders its files in worker processes, so a plugin that crashes
/// fails the file it crashed on alone. The plugins (TestSupport's
/// CrashingPlugins) pass their input through until they fail on purpose.
final class BatchCrashTests: XCTestCase {
    /// 256-frame blocks: crash-run segfaults in the run() after 20 whole
    /// blocks, so a file of 5 blocks (1280 frames, no tail) never reaches it
    /// and one of 60 blocks always does.
    static let block = 256
    static let shortFrames = 5 * block
    static let longFrames = 60 * block

    static func patch(plugin: String) -> String {
        """
        fxhost: 1
        nodes:
          in:  { input: 1 }
          bad: { plugin: "\(plugin)", params: { after: 20 } }
          out: { output: 1 }
        chain: [in, bad, out]
        """
    }

    private func environment(_ folder: URL) throws -> [String: String] {
        // Crash logs in the test's folder, not the system's.
        ["LV2_PATH": try CrashingPlugins.install(in: folder.appendingPathComponent("lv2")).path, "TMPDIR": folder.path]
    }

    /// The batch's workers still alive: processes started with `--batch-worker` on files in `folder`.
    private func workers(on folder: URL) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") else { return false }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.contains("--batch-worker") && arguments.contains { $0.hasPrefix(folder.path) }
        }
    }

    func testACrashFailsItsFileAloneAndTheOthersEqualSingleRenders() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let environment = try environment(folder)
        try Self.patch(plugin: CrashingPlugins.crashInRun).write(toFile: path("fx.yaml"), atomically: true, encoding: .utf8)
        for folderName in ["takes", "single", "out"] {
            try FileManager.default.createDirectory(atPath: path(folderName), withIntermediateDirectories: true)
        }
        // c is the long one: in the middle, so files before and after it render.
        for (seed, name) in ["a", "b", "c", "d"].enumerated() {
            let frames = name == "c" ? Self.longFrames : Self.shortFrames
            try Audio.noise(channels: 1, frames: frames, amplitude: 0.4, seed: UInt64(seed + 1)).write(path("takes/\(name).wav"))
        }
        let options = ["--tail", "0", "--block", String(Self.block)]
        for name in ["a", "b", "d"] {
            let single = try Tools.run(Tools.fxhost, ["render", path("fx.yaml"), "-i", path("takes/\(name).wav"),
                                                      "-o", path("single/\(name).wav"), "--quiet"] + options,
                                       environment: environment)
            XCTAssertEqual(single.status, 0, single.stderr)
        }
        let result = try Tools.run(Tools.fxhost, ["render", path("fx.yaml"), "-i", path("takes/*.wav"),
                                                  "-o", path("out/{name}.wav"), "--jobs", "2", "--json"] + options,
                                   environment: environment)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("1 of 4 files failed to render (1 crashed)"), result.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                    result.stdout)
        XCTAssertEqual(summary["rendered"] as? Int, 3)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        XCTAssertEqual(summary["crashed"] as? Int, 1)
        let files = try XCTUnwrap(summary["files"] as? [[String: Any]])
        XCTAssertEqual(files.map { $0["input"] as? String }, ["a", "b", "c", "d"].map { path("takes/\($0).wav") })
        XCTAssertEqual(files[2]["crashed"] as? Bool, true, "\(files[2])")
        XCTAssertNil(files[2]["render"])
        let sentence = files[2]["error"] as? String ?? ""
        // The worker's own report: the node, its plugin, the call, and 20 blocks of 256 frames in: 5120 / 48000 s.
        XCTAssertTrue(sentence.contains("node `bad` (Crashy Effect) crashed in run() (SIGSEGV) at 0:00.107 of the input"), sentence)
        XCTAssertEqual(sentence.split(separator: "\n").count, 1, "one sentence: \(sentence)")
        for index in [0, 1, 3] {
            XCTAssertNil(files[index]["error"], "\(files[index])")
            XCTAssertNil(files[index]["crashed"], "\(files[index])")
        }
        // Nothing of c: no output, no hidden partial.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out")).sorted(), ["a.wav", "b.wav", "d.wav"])
        for name in ["a", "b", "d"] {
            let single = try Audio.read(path("single/\(name).wav"))
            XCTAssertIdentical(try Audio.read(path("out/\(name).wav")), single, "\(name) in the batch vs alone")
            XCTAssertIdentical(single, try Audio.read(path("takes/\(name).wav")), "\(name): the plugin passes its input through")
        }
        XCTAssertEqual(workers(on: folder), [], "no worker outlives the batch")
    }

    func testAPluginThatAbortsInInstantiateCrashesEveryFile() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let environment = try environment(folder)
        try Self.patch(plugin: CrashingPlugins.abortInInstantiate).write(toFile: path("fx.yaml"), atomically: true, encoding: .utf8)
        for folderName in ["takes", "out"] {
            try FileManager.default.createDirectory(atPath: path(folderName), withIntermediateDirectories: true)
        }
        for (seed, name) in ["a", "b", "c"].enumerated() {
            try Audio.noise(channels: 1, frames: Self.shortFrames, seed: UInt64(seed + 1)).write(path("takes/\(name).wav"))
        }
        let result = try Tools.run(Tools.fxhost, ["render", path("fx.yaml"), "-i", path("takes/*.wav"),
                                                  "-o", path("out/{name}.wav"), "--jobs", "2", "--tail", "0"],
                                   environment: environment)
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("3 of 3 files failed to render (3 crashed)"), result.stderr)
        XCTAssertTrue(result.stderr.contains("rendered 0 of 3 files"), result.stderr)
        for name in ["a", "b", "c"] {
            let line = result.stderr.split(separator: "\n").first { $0.contains("takes/\(name).wav: CRASHED: ") }
            XCTAssertTrue(line?.contains("SIGABRT") ?? false, "\(name): \(result.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out")), [])
        XCTAssertEqual(workers(on: folder), [], "no worker outlives the batch")
    }

    /// x42's convolver prints its configuration on stdout as it loads an IR:
    /// in a worker that must reach the user's stderr, not the parent's report
    /// pipe (where it would be a malformed report, or lost).
    func testAPluginPrintingOnStdoutLeavesTheWorkersReportsAlone() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try MessageParameterRenderTests.writeImpulse(path("ir.wav"), at: 480, value: 0.5)
        for folderName in ["takes", "out"] {
            try FileManager.default.createDirectory(atPath: path(folderName), withIntermediateDirectories: true)
        }
        for (seed, name) in ["a", "b", "c"].enumerated() {
            try Audio.noise(channels: 1, frames: 4_800, amplitude: 0.5, seed: UInt64(seed + 1)).write(path("takes/\(name).wav"))
        }
        try """
        fxhost: 1
        nodes:
          in:  { input: 1 }
          cab: { plugin: "http://gareus.org/oss/lv2/zeroconvolv#CfgMono", params: { ir: ir.wav } }
          out: { output: 1 }
        chain: [in, cab, out]
        """.write(toFile: path("cab.yaml"), atomically: true, encoding: .utf8)
        let result = try Tools.run(Tools.fxhost, ["render", path("cab.yaml"), "-i", path("takes/*.wav"),
                                                  "-o", path("out/{name}.wav"), "--jobs", "2", "--tail", "0", "--json"])
        XCTAssertEqual(result.status, 0, result.stderr)
        let summary = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any],
                                    result.stdout)
        XCTAssertEqual(summary["rendered"] as? Int, 3, result.stdout)
        XCTAssertEqual(summary["crashed"] as? Int, 0, result.stdout)
        XCTAssertTrue(result.stderr.contains("SF rate"), "the plugin's own words reach stderr: \(result.stderr)")
        // The IR is 0.5 at 480 frames: each output is its input, delayed and halved.
        for name in ["a", "b", "c"] {
            let input = try Audio.read(path("takes/\(name).wav")).channels[0]
            let output = try Audio.read(path("out/\(name).wav")).channels[0]
            XCTAssertEqual(output.count, input.count, name)
            XCTAssertEqual(output[1000], input[1000 - 480] * 0.5, accuracy: 1e-6, name)
        }
    }

    /// SIGTERM to the batch alone reaches its workers: the files in hand are
    /// removed and the batch says it was interrupted. A worker spinning in a
    /// plugin never sees its stop and is killed.
    func testATerminatedBatchStopsItsWorkersAndKeepsNoPartialFile() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let environment = try environment(folder)
        try Self.patch(plugin: CrashingPlugins.spinInRun).write(toFile: path("fx.yaml"), atomically: true, encoding: .utf8)
        for folderName in ["takes", "out"] {
            try FileManager.default.createDirectory(atPath: path(folderName), withIntermediateDirectories: true)
        }
        for (seed, name) in ["a", "b", "c"].enumerated() {
            try Audio.noise(channels: 1, frames: Self.longFrames, seed: UInt64(seed + 1)).write(path("takes/\(name).wav"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.fxhost)
        process.arguments = ["render", path("fx.yaml"), "-i", path("takes/*.wav"), "-o", path("out/{name}.wav"),
                             "--jobs", "2", "--tail", "0", "--block", String(Self.block)]
        process.environment = Tools.childEnvironment(environment)
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // Both workers have set their files up (the partials exist) before the signal.
        XCTAssertTrue(eventually(within: 60) {
            ["a", "b"].allSatisfy { FileManager.default.fileExists(atPath: path("out/.\($0).wav.partial")) }
        }, "both workers started rendering")
        kill(process.processIdentifier, SIGTERM)
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 1, message)
        XCTAssertTrue(message.contains("interrupted by SIGTERM: 0 of 3 files were rendered"), message)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out")), [])
        XCTAssertEqual(workers(on: folder), [], "no worker outlives the batch")
    }
}
