import Foundation
import JackIO
import XCTest

/// What a host owes a plugin offline, seen through the probe plugin
/// (TestSupport's ProbePlugin): the lv2:freeWheeling port is 1, and the
/// worker runs synchronously, its answer delivered right after the run that
/// asked — so the output is 1.0 for the first block and 1.5 from the second.
final class ProbePluginTests: XCTestCase {
    func expectOfflineDuties(_ output: Audio, block: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(output.frames, 4 * block, file: file, line: line)
        XCTAssertEqual(Array(output.channels[0].prefix(block)), [Float](repeating: 1.0, count: block),
                       "freeWheeling is 1; the worker has not answered yet", file: file, line: line)
        XCTAssertEqual(Array(output.channels[0].dropFirst(block)), [Float](repeating: 1.5, count: 3 * block),
                       "the answer came after the first run", file: file, line: line)
    }

    func environment(_ folder: URL) throws -> [String: String] {
        let library = try ProbePlugin.buildLibrary(in: folder.appendingPathComponent("build"))
        return ["LV2_PATH": try ProbePlugin.bundle(in: folder.appendingPathComponent("lv2"), library: library).path]
    }

    func testAnEmbeddedRenderDrivesFreeWheelingAndARunsTheWorkerSynchronously() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.constant([0], frames: 256).write(path("silence.wav"))
        let result = try Tools.run(Tools.fxhost, ["render", "--chain", ProbePlugin.uri, "-i", path("silence.wav"),
                                                  "-o", path("out.wav"), "--block", "64", "--tail", "0", "--quiet"],
                                   environment: try environment(folder))
        XCTAssertEqual(result.status, 0, result.stderr)
        expectOfflineDuties(try Audio.read(path("out.wav")), block: 64)
    }

    func testAFreewheelBounceDoesTheSame() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 64)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.constant([0], frames: 256).write(path("silence.wav"))
        try """
        fxhost: 1
        nodes:
          src: { file: silence.wav }
          probe: { plugin: "\(ProbePlugin.uri)" }
          out: { output: 1 }
        chain: [src, probe, out]
        """.write(toFile: path("probe.yaml"), atomically: true, encoding: .utf8)
        let result = try Tools.run(Tools.fxhost, ["render", path("probe.yaml"), "-o", path("out.wav"), "--engine", "jack",
                                                  "--server", server.name, "--tail", "0", "--quiet"],
                                   environment: try environment(folder))
        XCTAssertEqual(result.status, 0, result.stderr)
        expectOfflineDuties(try Audio.read(path("out.wav")), block: 64)
    }
}
