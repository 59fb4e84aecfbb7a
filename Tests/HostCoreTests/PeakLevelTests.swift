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

/// The measure goes sixteen lanes at a time: it must agree with the plain
/// definition (the largest non-NaN magnitude, 0 for none) for every length,
/// start and place of the loudest sample, a NaN or an infinity.
final class PeakLevelLanesTests: XCTestCase {
    private func scalarPeak(_ samples: ArraySlice<Float>) -> Float {
        samples.filter { !$0.isNaN }.map { abs($0) }.max().map { max($0, 0) } ?? 0
    }

    func testEveryLengthStartAndPlaceAgreesWithTheDefinition() {
        var generator = SystemRandomNumberGenerator()
        for frames in [0, 1, 2, 7, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100] {
            for start in [0, 1, 3] {
                for loudest in Set([0, frames / 2, max(frames - 1, 0)]) where frames > 0 {
                    var samples = (0..<(start + frames)).map { _ in Float.random(in: -0.5...0.5, using: &generator) }
                    samples[start + loudest] = loudest % 2 == 0 ? -0.875 : 0.875
                    let expected = scalarPeak(samples[start...])
                    XCTAssertEqual(expected, 0.875)
                    samples.withUnsafeBufferPointer { buffer in
                        XCTAssertEqual(PeakLevel.measure(buffer.baseAddress! + start, frames: frames), expected,
                                       "\(frames) frames from \(start), loudest at \(loudest)")
                    }
                }
            }
        }
    }

    func testNotANumberInAnyLaneNeverWins() {
        for nanPlace in 0..<40 {
            var samples = [Float](repeating: 0.125, count: 40)
            samples[(nanPlace + 7) % 40] = -0.25
            samples[nanPlace] = nanPlace % 2 == 0 ? .nan : -.nan
            XCTAssertEqual(PeakLevel.measure(samples, frames: 40), 0.25, "NaN at \(nanPlace)")
        }
        let allNaN = [Float](repeating: .nan, count: 33)
        XCTAssertEqual(PeakLevel.measure(allNaN, frames: 33), 0, "nothing but NaN: no level")
    }

    func testInfinityAndNegativeZeroInTheLanes() {
        var samples = [Float](repeating: -0.0, count: 48)
        XCTAssertEqual(PeakLevel.measure(samples, frames: 48), 0)
        XCTAssertEqual(PeakLevel.measure(samples, frames: 48).sign, .plus, "a magnitude is never negative")
        samples[21] = -.infinity
        XCTAssertEqual(PeakLevel.measure(samples, frames: 48), .infinity)
    }
}
