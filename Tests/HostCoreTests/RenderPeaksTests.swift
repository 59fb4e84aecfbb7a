import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// A render's peaks and its tail, with the summary's peaks measured or not
/// (`RenderOptions.measuresPeaks`, off when the command line shows no
/// summary). Oracle: a ramp of known peak through a unit that adds a known
/// offset, so the tail is silent (offset 0) or stays at -60 dBFS (0.001).
final class RenderPeaksTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeScratchFolder(prefix: "fxhost-peaks")
    }

    /// 4 800 frames of a ramp peaking at 0.5, plus `offset`, then a tail of at most 1 s.
    private func render(offset: Float, measuresPeaks: Bool) throws -> RenderSummary {
        let ramp = (0..<4_800).map { Float($0 + 1) / 9_600 }
        let clip = folder.appendingPathComponent("ramp.wav").path
        try AudioFileTestSupport.write([ramp], to: clip, format: .wavFloat, sampleRate: 48_000)
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("ramp", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: ramp.count, startSeconds: 0))
        let unit = try graph.addUnit("shift", ScalingUnit(gain: 1, offset: offset))
        let out = try graph.addOutput("out", channels: 1)
        try graph.connect(player, to: unit)
        try graph.connect(unit, to: out)
        let plan = try graph.compile(format: RenderFormat(sampleRate: 48_000, maxBlockFrames: 64, mode: .offline))
        var options = RenderOptions()
        options.outputFiles["out"] = RenderOutputFile(path: folder.appendingPathComponent("out.wav").path, format: .wavFloat)
        options.maximumTailSeconds = 1
        options.measuresPeaks = measuresPeaks
        return try OfflineRenderer(plan: plan, options: options).run()
    }

    func testPeaksAreMeasuredUnlessTurnedOff() throws {
        XCTAssertEqual(try render(offset: 0, measuresPeaks: true).outputs.first?.peaks, [0.5])
        XCTAssertEqual(try render(offset: 0, measuresPeaks: false).outputs.first?.peaks, [])
    }

    func testTheTailIsMeasuredEitherWay() throws {
        for measuresPeaks in [true, false] {
            XCTAssertEqual(try render(offset: 0, measuresPeaks: measuresPeaks).frames, 4_800 + 24_000,
                           "a silent tail stops after half a second (peaks measured: \(measuresPeaks))")
            XCTAssertEqual(try render(offset: 0.001, measuresPeaks: measuresPeaks).frames, 4_800 + 48_000,
                           "a tail at -60 dBFS runs to its limit (peaks measured: \(measuresPeaks))")
        }
    }
}
