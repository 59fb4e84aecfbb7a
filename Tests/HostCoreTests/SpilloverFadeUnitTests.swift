import XCTest
@testable import HostCore

/// The spillover's fade, block by block: unity until half a second before
/// the end, then (end − n) / fade, then exactly 0; kept instances go on
/// counting across a recompile; it has ended after exactly its frames; a
/// cut falls from where the gain is to 0 in 10 ms, no step, and ends it.
final class SpilloverFadeUnitTests: XCTestCase {
    /// Runs `blocks` blocks of `frames` of 0.5 through the unit's one kernel; the output, and `hasEnded` after each block.
    private func run(_ unit: SpilloverFadeUnit, format: RenderFormat, blocks: Int, frames: Int,
                     before: (Int) -> Void = { _ in }) throws -> (output: [Float], ended: [Bool]) {
        let kernel = try unit.prepareInstances(count: 1, format: format).kernels[0]
        var input = [Float](repeating: 0.5, count: frames), block = [Float](repeating: 9, count: frames)
        var output: [Float] = [], ended: [Bool] = []
        for index in 0..<blocks {
            before(index)
            input.withUnsafeMutableBytes { kernel.connect(kernel.handle, 0, $0.baseAddress) }
            block.withUnsafeMutableBytes { kernel.connect(kernel.handle, 1, $0.baseAddress) }
            kernel.run(kernel.handle, UInt32(frames))
            output += block
            ended.append(unit.hasEnded)
        }
        return (output, ended)
    }

    func testItHasEndedAfterExactlyItsFrames() throws {
        // 1 s at 1000 Hz in blocks of 100: the 10th block ends at frame 1000, the spillover's end.
        let unit = SpilloverFadeUnit(seconds: 1)
        XCTAssertFalse(unit.hasEnded, "no instance has run")
        let result = try run(unit, format: RenderFormat(sampleRate: 1000, maxBlockFrames: 100, mode: .live), blocks: 12, frames: 100)
        XCTAssertEqual(result.ended, [Bool](repeating: false, count: 9) + [true, true, true])
    }

    func testACutFadesFromWhereItIsToZeroInTenMillisecondsAndEnds() throws {
        // 10 s at 48 kHz in blocks of 64 (the fade would start at 9.5 s); cut asked before block 100 (frame 6400):
        // from there the gain falls by 1/480 a frame, to 0 at frame 6880, and the unit has ended once that is played.
        let unit = SpilloverFadeUnit(seconds: 10)
        let result = try run(unit, format: RenderFormat(sampleRate: 48_000, maxBlockFrames: 64, mode: .live), blocks: 120,
                             frames: 64) { if $0 == 100 { unit.cut() } }
        for (n, sample) in result.output.enumerated() {
            let gain: Float = n < 6400 ? 1 : n < 6880 ? Float(6880 - n) / 480 : 0
            XCTAssertEqual(sample, 0.5 * gain, accuracy: 1e-6, "frame \(n)")
        }
        // Block 107 ends at frame 6912, the first block end past 6880.
        XCTAssertEqual(result.ended.firstIndex(of: true), 107)
    }

    func testTheGainIsUnityThenLinearToZeroThenZero() throws {
        // 1 s at 1000 Hz: 1000 frames, the fade over the last 500.
        let unit = SpilloverFadeUnit(seconds: 1)
        let format = RenderFormat(sampleRate: 1000, maxBlockFrames: 64, mode: .live)
        var output: [Float] = []
        var input = [Float](repeating: 0.5, count: 64), block = [Float](repeating: 9, count: 64)
        for _ in 0..<20 {
            // Prepared again each block, as a recompile does: the same instance comes back and counts on.
            let kernel = try unit.prepareInstances(count: 1, format: format).kernels[0]
            input.withUnsafeMutableBytes { kernel.connect(kernel.handle, 0, $0.baseAddress) }
            block.withUnsafeMutableBytes { kernel.connect(kernel.handle, 1, $0.baseAddress) }
            kernel.run(kernel.handle, 64)
            output += block
        }
        for (n, sample) in output.enumerated() {
            let gain: Float = n < 500 ? 1 : n < 1000 ? Float(1000 - n) / 500 : 0
            XCTAssertEqual(sample, 0.5 * gain, accuracy: 1e-6, "frame \(n)")
        }
    }
}
