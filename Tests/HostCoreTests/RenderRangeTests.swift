import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// Rendering a range of the timeline (`RenderOptions.startSeconds` and
/// `endSeconds`), as a bounce from a live session does. Oracle: a ramp file
/// placed at a known offset through a unit that delays it by a known
/// latency, so every output sample is one known ramp value.
final class RenderRangeTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeScratchFolder(prefix: "fxhost-range")
    }

    /// A 48 000-frame ramp (sample i = (i + 1) / 65 536) 0.25 s into the
    /// timeline, through a 100-frame delay, to one output.
    private func plan() throws -> RenderPlan {
        let ramp = (0..<48_000).map { Float($0 + 1) / 65_536 }
        let clip = folder.appendingPathComponent("ramp.wav").path
        try AudioFileTestSupport.write([ramp], to: clip, format: .wavFloat, sampleRate: 48_000)
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("ramp", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: ramp.count, startSeconds: 0.25))
        let delay = try graph.addUnit("delay", DelayingUnit(latency: 100))
        let out = try graph.addOutput("out", channels: 1)
        try graph.connect(player, to: delay)
        try graph.connect(delay, to: out)
        return try graph.compile(format: RenderFormat(sampleRate: 48_000, maxBlockFrames: 64, mode: .offline))
    }

    private func render(from start: Double, to end: Double?) throws -> [Float] {
        let output = folder.appendingPathComponent("out.wav").path
        var options = RenderOptions()
        options.outputFiles["out"] = RenderOutputFile(path: output, format: .wavFloat)
        options.startSeconds = start
        options.endSeconds = end
        options.maximumTailSeconds = 0
        _ = try OfflineRenderer(plan: plan(), options: options).run()
        let reader = try AudioFileReader(path: output)
        var samples = [Float](repeating: 0, count: reader.frames ?? 0)
        samples.withUnsafeMutableBufferPointer { buffer in
            let pointers = [buffer.baseAddress!]
            _ = pointers.withUnsafeBufferPointer { reader.read(into: $0, frames: buffer.count) }
        }
        return samples
    }

    /// Timeline frame t holds ramp sample t - 12 000.
    private func timeline(_ frame: Int) -> Float {
        (12_000..<60_000).contains(frame) ? Float(frame - 12_000 + 1) / 65_536 : 0
    }

    func testARangeIsExactlyThoseTimelineFramesWithTheLatencyCompensated() throws {
        let part = try render(from: 0.5, to: 0.75)
        XCTAssertEqual(part.count, 12_000, "exactly the range, no tail")
        XCTAssertEqual(part, (24_000..<36_000).map(timeline))
    }

    func testARangeMayStartBeforeAFileAndRunToTheEndOfTheSources() throws {
        let part = try render(from: 0.2, to: nil)
        XCTAssertEqual(part.count, 60_000 - 9_600)
        XCTAssertEqual(part, (9_600..<60_000).map(timeline))
    }

    func testRangesThatSelectNothingAreRefusedInOneSentence() throws {
        for (start, end, words) in [(-1.0, nil, "0 s or later"), (0.5, 0.5, "must come after the start"),
                                    (2.0, nil, "at or after the end of the sources (1.250 s)")] as [(Double, Double?, String)] {
            XCTAssertThrowsError(try render(from: start, to: end)) { error in
                XCTAssertTrue("\(error)".hasPrefix("that time range selects nothing to render"), "\(error)")
                XCTAssertTrue("\(error)".contains(words), "\(error)")
            }
        }
    }
}
