import Foundation
import TestSupport
import XCTest

/// `--json` output stays parseable when a plugin prints on stdout: x42's
/// convolver prints its configuration ("SF rate: …") there when it loads an
/// impulse response. What it prints goes to stderr; stdout is the JSON alone,
/// as a JSON parser no one here wrote (Foundation's) reads it.
final class JSONOutputTests: XCTestCase {
    func testAPluginPrintingOnStdoutLeavesTheJSONAlone() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try MessageParameterRenderTests.writeImpulse(path("ir.wav"), at: 480, value: 0.5)
        try Audio.noise(channels: 1, frames: 4_800, amplitude: 0.5, seed: 5).write(path("in.wav"))
        try """
        fxhost: 1
        nodes:
          src: { file: in.wav }
          cab: { plugin: "http://gareus.org/oss/lv2/zeroconvolv#CfgMono", params: { ir: ir.wav } }
          out: { output: 1 }
        chain: [src, cab, out]
        """.write(toFile: path("cab.yaml"), atomically: true, encoding: .utf8)
        for arguments in [["render", path("cab.yaml"), "-o", path("out.wav"), "--tail", "0", "--json"],
                          ["check", path("cab.yaml"), "--json"]] {
            let result = try Tools.fxhost(arguments)
            XCTAssertEqual(result.status, 0, result.stderr)
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)),
                             "\(arguments[0]) --json: stdout is not JSON:\n\(result.stdout)")
            XCTAssertTrue(result.stderr.contains("SF rate"), "the plugin's own words reach stderr: \(result.stderr)")
        }
    }

    /// `run --json` and the console's JSON replies: stdout holds one JSON
    /// reply per command line and the closing status, all parseable, while
    /// the convolver's configuration (printed on stdout by the plugin as it
    /// loads its impulse response, live on its worker thread too) is on stderr.
    func testALiveRunKeepsItsStdoutJSONWhileThePluginPrints() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try MessageParameterRenderTests.writeImpulse(path("ir.wav"), at: 480, value: 0.5)
        try MessageParameterRenderTests.writeImpulse(path("ir2.wav"), at: 48, value: 0.25)
        let run = try MessageParameterRunTests.startConvolverRun(in: folder, ir: "ir.wav", server: server.name, tap: false,
                                                                 options: ["--quiet", "--json"])
        run.type(#"{"v": 1, "cmd": "set", "node": "cab", "param": "ir", "value": "\#(path("ir2.wav"))"}"#)
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("\"ok\"") }, run.stdout)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        // The console echoes the change as a person reads it too
        // (`cab:ir = …`), then the reply's line, then the closing status.
        let lines = run.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let replyLine = try XCTUnwrap(lines.first { $0.hasPrefix("{\"") }, run.stdout)
        let reply = try JSONSerialization.jsonObject(with: Data(replyLine.utf8)) as? [String: Any]
        XCTAssertEqual(reply?["ok"] as? Bool, true, run.stdout)
        let statusStart = try XCTUnwrap(lines.firstIndex { $0 == "{" }, run.stdout)
        let statusText = lines[statusStart...].joined(separator: "\n")
        let status = try JSONSerialization.jsonObject(with: Data(statusText.utf8)) as? [String: Any]
        XCTAssertNotNil(status?["properties"], statusText)
        XCTAssertFalse(run.stdout.contains("SF rate"), run.stdout)
        XCTAssertTrue(run.stderr.contains("SF rate"), "the plugin's own words reach stderr: \(run.stderr)")
    }
}
