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
