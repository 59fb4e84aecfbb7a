import XCTest
@testable import HostCore

final class PeakLevelTests: XCTestCase {
    func testPeakIsTheLargestMagnitude() {
        let samples: [Float] = [0.25, -0.75, 0.5, -0.125]
        XCTAssertEqual(PeakLevel.measure(samples, frames: 4), 0.75, "a negative sample counts by its magnitude")
        XCTAssertEqual(PeakLevel.measure(samples, frames: 1), 0.25, "only the frames asked for")
        XCTAssertEqual(PeakLevel.measure(samples, frames: 0), 0, "no frames, no level")
    }

    func testNotANumberNeverWins() {
        let samples: [Float] = [.nan, 0.5, -.nan, -0.25]
        XCTAssertEqual(PeakLevel.measure(samples, frames: 4), 0.5)
    }

    func testBeyondFullScaleIsKept() {
        let samples: [Float] = [1.5, -2, .infinity]
        XCTAssertEqual(PeakLevel.measure(samples, frames: 2), 2, "a render summary reports clipping from it")
        XCTAssertEqual(PeakLevel.measure(samples, frames: 3), .infinity)
    }
}
