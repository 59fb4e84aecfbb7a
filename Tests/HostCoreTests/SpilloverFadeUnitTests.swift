import XCTest
@testable import HostCore

/// The spillover's fade, block by block: unity until half a second before
/// the end, then (end − n) / fade, then exactly 0; kept instances go on
/// counting across a recompile.
final class SpilloverFadeUnitTests: XCTestCase {
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
