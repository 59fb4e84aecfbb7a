import Foundation
import TestSupport
import XCTest

/// Offline, plugins that take the host's time get the patch's tempo. The
/// oracle is arithmetic: eg-metro (lv2-examples) starts a click on every
/// beat once it is told a rolling position, its envelope rising from 0, so
/// at `tempo: T` and 48 kHz each click's first sample is silent and its
/// second sound, at frames n × 48000 × 60 / T exactly (24000 apart at 120).
final class TimePositionRenderTests: XCTestCase {
    func testEgMetroClicksOnEveryBeatOfThePatchTempo() throws {
        let folder = try Tools.temporaryFolder()
        for (tempo, beatFrames) in [(120, 24_000), (90, 32_000)] {
            let patch = folder.appendingPathComponent("metro\(tempo).yaml").path
            try """
            fxhost: 1
            tempo: \(tempo)
            meter: 3/4
            nodes:
              metro: { plugin: http://lv2plug.in/plugins/eg-metro }
              out: { output: 1 }
            chain: [metro, out]
            """.write(toFile: patch, atomically: true, encoding: .utf8)
            let output = folder.appendingPathComponent("metro\(tempo).wav").path
            try Tools.fxhost(["render", patch, "-o", output, "--rate", "48000", "--tail", "2.2s", "--quiet"])
            let samples = try Audio.read(output).channels[0]
            let onsets = Self.clickOnsets(samples)
            let expected = Array(stride(from: 0, to: samples.count - 1, by: beatFrames))
            XCTAssertEqual(onsets, expected, "clicks at \(tempo) bpm")
        }
    }

    /// Calf Vintage Delay (calf-plugins) in Sync timing reads its delay from
    /// its `bpm_host` control, designated time:beatsPerMinute, which the host
    /// drives: with 4 of 4 subdivisions one echo of an impulse comes exactly
    /// one beat, 48000 × 60 / T frames, after it (24000 at 120, 28800 at 100).
    func testABeatsPerMinutePortFollowsThePatchTempo() throws {
        let folder = try Tools.temporaryFolder()
        let input = folder.appendingPathComponent("impulse.wav").path
        var impulse = [Float](repeating: 0, count: 48_000 * 3)
        impulse[48_000] = 0.5
        try Audio(channels: [impulse], sampleRate: 48_000).write(input)
        for (tempo, beatFrames) in [(120, 24_000), (100, 28_800)] {
            let patch = folder.appendingPathComponent("delay\(tempo).yaml").path
            try """
            fxhost: 1
            tempo: \(tempo)
            nodes:
              src: { file: impulse.wav }
              delay:
                plugin: http://calf.sourceforge.net/plugins/VintageDelay
                params: { timing: Sync, subdiv: 4, time_l: 4, time_r: 4, feedback: 0, amount: 1, dry: 0, mix_mode: Stereo, medium: Plain }
              out: { output: 2 }
            chain: [src, delay, out]
            """.write(toFile: patch, atomically: true, encoding: .utf8)
            let output = folder.appendingPathComponent("delay\(tempo).wav").path
            try Tools.fxhost(["render", patch, "-o", output, "--tail", "0", "--quiet"])
            let left = try Audio.read(output).channels[0]
            let sounding = left.indices.filter { abs(left[$0]) > 1e-6 }
            XCTAssertEqual(sounding, [48_000 + beatFrames], "the echo, one beat at \(tempo) bpm after the impulse")
            XCTAssertEqual(left[48_000 + beatFrames], 0.5, "wet 1: the impulse itself")
        }
        let info = try Tools.fxhost(["info", "http://calf.sourceforge.net/plugins/VintageDelay"])
        XCTAssertTrue(info.stdout.contains("bpm_host  Host BPM: follows the host's tempo (time:beatsPerMinute)"), info.stdout)
        let refused = try Tools.run(Tools.fxhost, ["check", "--chain", "VintageDelay bpm_host=90"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertTrue(refused.stderr.contains("`bpm_host` of `Calf Vintage Delay` follows the host's tempo (time:beatsPerMinute): "
            + "set the patch's `tempo:` or use `tempo BPM`"), refused.stderr)
    }

    /// The frame each click starts on: the silent sample before the first
    /// sounding one after at least 1000 silent samples (a click lasts 80 ms).
    static func clickOnsets(_ samples: [Float]) -> [Int] {
        var onsets: [Int] = []
        var lastSound = -1_000_000
        for (frame, sample) in samples.enumerated() where sample != 0 {
            if frame - lastSound > 1000 { onsets.append(frame - 1) }
            lastSound = frame
        }
        return onsets
    }
}
