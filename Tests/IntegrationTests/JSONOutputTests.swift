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
}
