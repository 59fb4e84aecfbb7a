import XCTest
@testable import HostCore

/// Tap tempo by arithmetic: a beat every 0.5 s is 60 / 0.5 = 120 bpm; the
/// mean of intervals 0.5, 0.5, 0.6 and 0.4 is 0.5; a pause over 2 s starts
/// again; the result stays within 20 to 300 bpm.
final class TapTempoTests: XCTestCase {
    func testTapsHalfASecondApartGive120() {
        var taps = TapTempo()
        XCTAssertNil(taps.tap(at: 0), "one tap is no tempo yet")
        XCTAssertEqual(taps.tap(at: 0.5), 120)
        XCTAssertEqual(taps.tap(at: 1.0), 120)
        XCTAssertEqual(taps.tap(at: 1.5), 120)
        XCTAssertEqual(taps.taps, 4)
    }

    func testTheTempoIsTheMeanOfTheLastFourIntervals() throws {
        var taps = TapTempo()
        // Intervals 1.0 (forgotten: only the last four count), then 0.5, 0.5, 0.6, 0.4: mean 0.5.
        for time in [0, 1.0, 1.5, 2.0, 2.6] { _ = taps.tap(at: time) }
        XCTAssertEqual(try XCTUnwrap(taps.tap(at: 3.0)), 120, accuracy: 1e-9)
        // Intervals 0.5, 0.6, 0.4, 0.3: mean 0.45, 60 / 0.45 = 133.33…
        XCTAssertEqual(try XCTUnwrap(taps.tap(at: 3.3)), 60 / 0.45, accuracy: 1e-9)
    }

    func testAPauseLongerThanTwoSecondsStartsAgain() {
        var taps = TapTempo()
        _ = taps.tap(at: 0)
        XCTAssertEqual(taps.tap(at: 0.5), 120)
        XCTAssertNil(taps.tap(at: 2.6), "2.1 s after the last tap: a new count")
        XCTAssertEqual(taps.taps, 1)
        // 60 / 1.5 = 40 bpm: the 2.1 s gap is not in the mean.
        XCTAssertEqual(taps.tap(at: 4.1) ?? 0, 40, accuracy: 1e-9)
        // Exactly 2 s is still the same count: 60 / mean(1.5, 2.0) = 34.28…
        XCTAssertEqual(taps.tap(at: 6.1) ?? 0, 60 / 1.75, accuracy: 1e-9)
    }

    func testTapsFiveSecondsApartNeverGiveATempo() {
        var taps = TapTempo()
        for beat in 0..<6 { XCTAssertNil(taps.tap(at: Double(beat) * 5)) }
    }

    func testTheTempoStaysWithinTwentyToThreeHundred() {
        var fast = TapTempo()
        _ = fast.tap(at: 0)
        // 60 / 0.01 = 6000 bpm, clamped.
        XCTAssertEqual(fast.tap(at: 0.01), 300)
        XCTAssertEqual(fast.tap(at: 0.02), 300)
        var slow = TapTempo()
        _ = slow.tap(at: 0)
        // 60 / 1.9 = 31.6 bpm is within; 2 s gives 30: the slowest taps reach 30, never below 20.
        XCTAssertEqual(slow.tap(at: 1.9) ?? 0, 60 / 1.9, accuracy: 1e-9)
        // The longest interval a count keeps, exactly 2 s: 30 bpm, the slowest a count can give.
        var slowest = TapTempo()
        _ = slowest.tap(at: 0)
        XCTAssertEqual(slowest.tap(at: 2), 30)
        XCTAssertNil(slowest.tap(at: 4.5), "2.5 s later: a new count, never 24 bpm")
    }

    func testTimesThatGoBackOrAreNotNumbersDoNotBreakTheCount() {
        var taps = TapTempo()
        _ = taps.tap(at: 10)
        XCTAssertEqual(taps.tap(at: 10.5), 120)
        XCTAssertEqual(taps.tap(at: .nan), 120, "ignored")
        XCTAssertEqual(taps.tap(at: 10.5), 120, "the same tap twice counts once")
        XCTAssertNil(taps.tap(at: 3), "earlier than the last tap: a new count")
        XCTAssertEqual(taps.tap(at: 3.25), 240)
    }
}
