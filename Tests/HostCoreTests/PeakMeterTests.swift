import XCTest
@testable import HostCore

/// A render's meter: each output channel's peak over every block, and each
/// block's loudest sample among outputs and taps, from an offset into the block.
final class PeakMeterTests: XCTestCase {
    func testOutputPeaksAccumulateAndTheBlockPeakCountsTaps() {
        let buffers = (0..<4).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 8) }
        defer { buffers.forEach { $0.deallocate() } }
        let meter = PeakMeter(outputs: [[buffers[0]], [buffers[1], buffers[2]]], taps: [[buffers[3]]])
        defer { meter.deallocate() }
        func fill(_ values: [[Float]]) {
            for (buffer, channel) in zip(buffers, values) { buffer.update(from: channel, count: 8) }
        }

        fill([[0.1, 0, 0, 0, 0, 0, 0, -0.2], [0.3, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, -0.4, 0, 0, 0, 0],
              [0, 0, 0, 0, 0.9, 0, 0, 0]])
        XCTAssertEqual(meter.measure(from: 0, frames: 8), 0.9, "the tap's sample is the block's loudest")
        XCTAssertEqual(meter.peaks(ofOutput: 0), [0.2])
        XCTAssertEqual(meter.peaks(ofOutput: 1), [0.3, 0.4])

        fill([[0.5, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0.25], [0, 0, 0, 0, 0, 0, 0, 0],
              [0, 0, 0, 0, 0, 0, 0, 0]])
        XCTAssertEqual(meter.measure(from: 1, frames: 7), 0.25, "the first frame is before the offset")
        XCTAssertEqual(meter.peaks(ofOutput: 0), [0.2], "a sample before the offset is not metered")
        XCTAssertEqual(meter.peaks(ofOutput: 1), [0.3, 0.4], "a quieter block keeps the peaks")
    }
}
