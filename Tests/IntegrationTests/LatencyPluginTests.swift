import Foundation
import XCTest

/// Latency compensation with real plugins that report latency: x42 dpl
/// (64 frames at 48 kHz) and swh fastLookaheadLimiter (240 frames). Their
/// thresholds sit above the test impulses, so the impulses pass unchanged in
/// level and only their timing is at stake. Oracles: where an impulse must
/// land (sample 0) and its amplitude by arithmetic.
final class LatencyPluginTests: XCTestCase {
    let dpl = "http://gareus.org/oss/lv2/dpl#stereo"
    let lookahead = "http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"

    /// 4800 stereo frames: 0.25 at frame 0 on both channels, 0.125 at frame 100 on the left.
    private func impulses() -> Audio {
        var audio = Audio.constant([0, 0], frames: 4800)
        audio.channels[0][0] = 0.25
        audio.channels[1][0] = 0.25
        audio.channels[0][100] = 0.125
        return audio
    }

    /// Frames whose magnitude exceeds a millionth.
    private func audible(_ samples: [Float]) -> [Int] { samples.indices.filter { abs(samples[$0]) > 1e-6 } }

    private func render(_ patch: String, _ name: String = #function) throws -> Audio {
        let folder = try Tools.temporaryFolder(name)
        let patchPath = folder.appendingPathComponent("patch.yaml").path
        let input = folder.appendingPathComponent("in.wav").path
        let output = folder.appendingPathComponent("out.wav").path
        try patch.write(toFile: patchPath, atomically: true, encoding: .utf8)
        try impulses().write(input)
        try Tools.fxhost(["render", patchPath, "-i", input, "-o", output, "--tail", "0", "--quiet"])
        return try Audio.read(output)
    }

    func testAnImpulseThroughDplComesOutAtSampleZero() throws {
        let out = try render("""
            fxhost: 1
            nodes:
              in: { input: 2 }
              lim: { plugin: "\(dpl)", params: { threshold: 0 } }
              out: { output: 2 }
            chain: [in, lim, out]
            """)
        XCTAssertEqual(out.frames, 4800, "as long as the input: the latency is rendered on at the end")
        XCTAssertEqual(audible(out.channels[0]), [0, 100])
        XCTAssertEqual(audible(out.channels[1]), [0])
        XCTAssertEqual(out.channels[0][0], 0.25, accuracy: 1e-6)
        XCTAssertEqual(out.channels[0][100], 0.125, accuracy: 1e-6)
    }

    func testDplInParallelWithADryPathSumsToOneAlignedImpulse() throws {
        let out = try render("""
            fxhost: 1
            nodes:
              in: { input: 2 }
              lim: { plugin: "\(dpl)", params: { threshold: 0 } }
              bus: { mix: 2 }
              out: { output: 2 }
            connect:
              - in -> lim
              - lim -> bus
              - { from: in, to: bus, gain: -6dB }
              - bus -> out
            """)
        let dryGain = Float(pow(10, -6.0 / 20))
        XCTAssertEqual(audible(out.channels[0]), [0, 100], "one impulse each, not a smeared pair")
        XCTAssertEqual(audible(out.channels[1]), [0])
        XCTAssertEqual(out.channels[0][0], 0.25 + 0.25 * dryGain, accuracy: 2e-6)
        XCTAssertEqual(out.channels[0][100], 0.125 + 0.125 * dryGain, accuracy: 2e-6)
    }

    func testASerialPairOfLatentPluginsIsCompensatedByTheSum() throws {
        let patch = """
            fxhost: 1
            nodes:
              in: { input: 2 }
              lim: { plugin: "\(dpl)", params: { threshold: 0 } }
              look: { plugin: "\(lookahead)", params: { limit: 0 } }
              out: { output: 2 }
            chain: [in, lim, look, out]
            """
        let out = try render(patch)
        XCTAssertEqual(out.frames, 4800)
        XCTAssertEqual(audible(out.channels[0]), [0, 100])
        XCTAssertEqual(out.channels[0][0], 0.25, accuracy: 1e-5)

        // `check --json` reports each plugin's latency and the sum at the output.
        let folder = try Tools.temporaryFolder()
        let patchPath = folder.appendingPathComponent("patch.yaml").path
        try patch.write(toFile: patchPath, atomically: true, encoding: .utf8)
        let report = try JSONSerialization.jsonObject(
            with: Data(try Tools.fxhost(["check", patchPath, "--json"]).stdout.utf8)) as! [String: Any]
        let nodes = report["nodes"] as! [[String: Any]]
        XCTAssertEqual(nodes.map { $0["latencyFrames"] as! Int }, [0, 64, 240, 0])
        XCTAssertEqual(nodes.map { $0["outputLatencyFrames"] as! Int }, [0, 64, 304, 304])
        XCTAssertEqual(report["latencyFrames"] as? Int, 304)
    }
}
