import Foundation
import HostCore
import TestSupport
import XCTest

/// `preset save` while the amp plays live, then the saved bundle used by an
/// offline render of another patch: the gain set live is in the preset, by
/// eg-amp's arithmetic (-6 dB: ×0.501187).
final class LivePresetSaveTests: XCTestCase {
    func testAPresetSavedLiveRendersOfflineWithTheValueSet() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        defer { withExtendedLifetime(server) {} }
        let folder = try Tools.temporaryFolder()
        let home = folder.appendingPathComponent("home")
        try LiveRunTests.writeAmpPatch(folder, seconds: 8)
        let run = try LiveRun(["run", folder.appendingPathComponent("amp.yaml").path, "--server", server.name, "--quiet"],
                              console: true, environment: ["HOME": home.path])
        XCTAssertTrue(run.waitForTap(folder.appendingPathComponent("take.wav").path, seconds: 0.5), run.stderr)
        run.type("set amp gain -6")
        run.type("preset save amp Minus Six")
        let bundle = home.appendingPathComponent(".lv2/fxhost-Minus-Six.lv2").path
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("amp: preset \"Minus Six\" saved in \(bundle)") },
                      run.stdout + run.stderr)
        run.type("preset save nowhere Other")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("there is no node named `nowhere`") }, run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        try """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          amp: { plugin: http://lv2plug.in/plugins/eg-amp, preset: Minus Six }
          main: { output: 1 }
        chain: [dc, amp, main]
        """.write(toFile: folder.appendingPathComponent("saved.yaml").path, atomically: true, encoding: .utf8)
        let output = folder.appendingPathComponent("out.wav").path
        let render = try Tools.run(Tools.fxhost, ["render", folder.appendingPathComponent("saved.yaml").path, "-o", output,
                                                  "--tail", "0", "--quiet"],
                                   environment: ["LV2_PATH": home.path + "/.lv2:/usr/lib/lv2"])
        XCTAssertEqual(render.status, 0, render.stderr)
        let samples = try Audio.read(output).channels[0]
        XCTAssertEqual(samples.count, 48_000 * 8)
        XCTAssertEqual(samples.first ?? 0, 0.5 * 0.501187, accuracy: 1e-6)
        XCTAssertEqual(Set(samples).count, 1, "the preset's gain throughout")
    }
}
