import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// A render whose output becomes infinite or NaN stops with a sentence that
/// names where, and keeps no file. Within the bounds a patch allows, the
/// honest way there is a chain of gains: twenty stages of +40 dB (the most
/// one may have) take 1.0 to 1e40, past Float's 3.4e38, so the twentieth
/// stage's output is inf.
final class NonFiniteRenderTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeScratchFolder(prefix: "fxhost-nonfinite")
    }

    private func render(stages: Int, tapAt tapped: Int? = nil, writesOutput: Bool = true) throws {
        let ones = [Float](repeating: 1, count: 4_800)
        let clip = folder.appendingPathComponent("ones.wav").path
        try AudioFileTestSupport.write([ones], to: clip, format: .wavFloat, sampleRate: 48_000)
        let graph = AudioGraph()
        var previous = try graph.addFilePlayer("ones", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: ones.count))
        for stage in 1...stages {
            let gain = try graph.addGain("g\(stage)", decibels: InputBounds.maximumGainDecibels)
            try graph.connect(previous, to: gain)
            if stage == tapped {
                try graph.installTap(on: gain, file: folder.appendingPathComponent("g\(stage).wav").path)
            }
            previous = gain
        }
        let out = try graph.addOutput("out", channels: 1)
        try graph.connect(previous, to: out)
        let plan = try graph.compile(format: RenderFormat(sampleRate: 48_000, maxBlockFrames: 64, mode: .offline))
        var options = RenderOptions()
        if writesOutput {
            options.outputFiles["out"] = RenderOutputFile(path: folder.appendingPathComponent("out\(stages).wav").path,
                                                          format: .wavFloat)
        }
        options.maximumTailSeconds = 0.1
        _ = try OfflineRenderer(plan: plan, options: options).run()
    }

    func testAnOutputThatBecomesInfiniteStopsTheRenderNamingIt() throws {
        XCTAssertNoThrow(try render(stages: 19), "1e38 is still a Float")
        XCTAssertThrowsError(try render(stages: 20)) { error in
            XCTAssertEqual("\(error)", "the render stopped: output `out` (fed by `g20:1`) became inf at 0.000 s "
                           + "(a gain or plugin on that path overflowed); no output was kept")
        }
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out19.wav").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("out20.wav").path))
    }

    func testATapThatBecomesInfiniteNamesTheTappedNode() throws {
        // Only the tap is written: its check is the one that sees it.
        XCTAssertThrowsError(try render(stages: 20, tapAt: 20, writesOutput: false)) { error in
            let tap = self.folder.appendingPathComponent("g20.wav").path
            XCTAssertEqual("\(error)", "the render stopped: the output of `g20` (tapped to \(tap)) became inf at 0.000 s "
                           + "(a gain or plugin on that path overflowed); no output was kept")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("g20.wav").path))
    }
}
