import Foundation
import HostCore
import TestSupport
import XCTest

/// A plugin's state that lives in a message parameter comes back after a
/// restart: x42's convolver on a constant 0.5 gives 0.5 × the sum of its
/// impulse response, 0.5 with the patch's unity impulse and 0.25 after
/// `set cab ir half.wav`. A crash of another node restarts the engine; the
/// take must read 0.25 again afterwards, not the patch's 0.5.
final class SupervisedStateRunTests: XCTestCase {
    func testTheConvolversImpulseResponseIsRestoredAfterARestart() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try MessageParameterRenderTests.writeImpulse(path("unity.wav"), at: 0, value: 1)
        try MessageParameterRenderTests.writeImpulse(path("half.wav"), at: 0, value: 0.5)
        try Audio.constant([0.5], frames: 48_000 * 60).write(path("dc.wav"))
        try """
        fxhost: 1
        nodes:
          dc:  { file: dc.wav }
          cab: { plugin: "http://gareus.org/oss/lv2/zeroconvolv#CfgMono", params: { ir: unity.wav } }
          bad: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 1000000 } }
          main: { output: 1 }
        chain: [dc, cab, bad, main]
        taps:
          - { at: bad, file: take.wav }
        """.write(toFile: path("cab.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("cab.yaml"), "--server", server.name, "--quiet"], console: true,
                              environment: ["LV2_PATH": plugins.path + ":/usr/lib/lv2", "TMPDIR": folder.path])
        func last() -> Float? { (try? Audio.read(path("take.wav")))?.channels.first?.last }
        XCTAssertTrue(eventually(within: 60) { last() == 0.5 }, "unity: 0.5")
        run.type("set cab ir \(path("half.wav"))")
        XCTAssertTrue(eventually(within: 60) { last() == 0.25 }, "half: 0.25")
        run.type("set bad after 0")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("the engine restarted without it") }, run.stderr)
        // The take goes on after the gap: its newest frames are the restarted engine's.
        let framesAtRestart = (try? Audio.read(path("take.wav")).frames) ?? 0
        XCTAssertTrue(eventually(within: 60) { ((try? Audio.read(path("take.wav")).frames) ?? 0) > framesAtRestart + 48_000 })
        XCTAssertEqual(last(), 0.25, "the impulse response set before the crash plays again")
        run.type("status --json")
        XCTAssertTrue(eventually(within: 60) { LiveRun.prettyJSONDocuments(in: run.stdout).count == 1 }, run.stdout)
        let status = try JSONSerialization.jsonObject(with: Data((LiveRun.prettyJSONDocuments(in: run.stdout).first ?? "{}").utf8))
            as? [String: Any]
        XCTAssertEqual((status?["properties"] as? [String: [String: String]])?["cab"]?["ir"], path("half.wav"))
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }
}
