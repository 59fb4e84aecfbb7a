import Foundation
import TestSupport
import XCTest

/// Offline, a bypassed plugin with an `lv2:enabled` port is told by that
/// port: x42 fil4 with +6 dB of gain, bypassed, gives its input back bit for
/// bit (as lv2file gives with `enable:0`), and `check` says which bypass a
/// plugin gets.
final class EnabledPortBypassRenderTests: XCTestCase {
    func testABypassedPluginWithAnEnabledPortPassesItsInputAndCheckSaysSo() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 1, frames: 48_000, amplitude: 0.3, seed: 5).write(path("in.wav"))
        for bypass in [true, false] {
            try """
            fxhost: 1
            nodes:
              src: { file: in.wav }
              eq: { plugin: "http://gareus.org/oss/lv2/fil4#mono", params: { gain: 6 }, bypass: \(bypass) }
              amp: { plugin: http://lv2plug.in/plugins/eg-amp }
              out: { output: 1 }
            chain: [src, eq, amp, out]
            """.write(toFile: path("eq.yaml"), atomically: true, encoding: .utf8)
            let check = try Tools.run(Tools.fxhost, ["check", path("eq.yaml")])
            XCTAssertEqual(check.status, 0, check.stderr)
            XCTAssertTrue(check.stdout.contains("eq: plugin x42-eq - Parametric Equalizer Mono"
                + (bypass ? ", bypassed" : "") + " (bypass: its own lv2:enabled port, no click)"), check.stdout)
            XCTAssertTrue(check.stdout.contains("amp: plugin Simple Amplifier [1 ch]"), "no such note for eg-amp: \(check.stdout)")
            let output = path(bypass ? "bypassed.wav" : "active.wav")
            let render = try Tools.run(Tools.fxhost, ["render", path("eq.yaml"), "-o", output, "--tail", "0", "--quiet"])
            XCTAssertEqual(render.status, 0, render.stderr)
        }
        let input = try Audio.read(path("in.wav")), bypassed = try Audio.read(path("bypassed.wav"))
        XCTAssertIdentical(bypassed, input, "bypassed through its enabled port: the input")
        let active = try Audio.read(path("active.wav")).channels[0]
        XCTAssertEqual(Double(active[24_000] / input.channels[0][24_000]), pow(10, 6.0 / 20), accuracy: 0.01, "active: +6 dB")
    }
}
