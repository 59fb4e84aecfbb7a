import XCTest
@testable import HostCore

/// Gains and peaks in dB, against arithmetic: -6 dB is ×0.501187; a peak
/// below the smallest step of 24-bit audio (2^-23) is silence.
final class DecibelsTests: XCTestCase {
    func testGainsConvertBothWays() {
        XCTAssertEqual(Decibels.toLinear(-6), 0.501187, accuracy: 1e-6)
        XCTAssertEqual(Decibels.fromLinear(0.5), -6.0206, accuracy: 1e-4)
    }

    func testAPeakBelowTheSmallest24BitStepIsSilence() {
        let step = 1.0 / 8_388_608  // 2^-23
        XCTAssertEqual(Decibels.peak(fromLinear: step), -138.47, accuracy: 0.01)
        XCTAssertEqual(Decibels.peak(fromLinear: step * 0.99), -.infinity)
        XCTAssertEqual(Decibels.peak(fromLinear: 1e-11), -.infinity, "a reverb tail at -220 dBFS")
        XCTAssertEqual(Decibels.peak(fromLinear: 0), -.infinity)
        XCTAssertEqual(Decibels.peak(fromLinear: 0.5), -6.0206, accuracy: 1e-4)
    }

    func testPeaksPrintWithOneDecimalOrAsMinusInfinity() {
        XCTAssertEqual(Decibels.peakText(-6.0206), "-6.0")
        XCTAssertEqual(Decibels.peakText(-.infinity), "-inf")
        XCTAssertEqual(Decibels.peakText(nil), "-inf")
        XCTAssertEqual(Decibels.peakText(Decibels.peak(fromLinear: 1e-11)), "-inf")
    }
}
