import XCTest
@testable import HostCore

/// The tempo a MIDI clock's pulses give, by arithmetic: 24 pulses a quarter
/// note, so pulses p frames apart at rate r are r × 60 / (24 × p) quarter
/// notes a minute (800 frames at 48 kHz: 150).
final class MIDIClockTempoTests: XCTestCase {
    func testExactPulsesGiveTheExactTempoFromTheSecondPulse() {
        var tempo = MIDIClockTempo()
        XCTAssertNil(tempo.pulse(atFrame: 1_000, sampleRate: 48_000), "one pulse is no interval")
        for pulse in 1..<100 {
            XCTAssertEqual(tempo.pulse(atFrame: UInt32(1_000 + 800 * pulse), sampleRate: 48_000), 150, "pulse \(pulse)")
        }
        // 1000 frames apart: 48000 × 60 / 24000 = 120, once the window holds only those.
        var last = UInt32(1_000 + 800 * 99)
        var latest: Double?
        for _ in 0..<25 {
            last += 1_000
            latest = tempo.pulse(atFrame: last, sampleRate: 48_000)
        }
        XCTAssertEqual(latest, 120)
    }

    func testPulsesAcrossTheFrameCountersWrapKeepTheirIntervals() {
        var tempo = MIDIClockTempo()
        var frame = UInt32.max - 2_000
        var latest: Double?
        for _ in 0..<10 {
            latest = tempo.pulse(atFrame: frame, sampleRate: 44_100)
            frame = frame &+ 735  // 44100 × 60 / (24 × 735) = 150
        }
        XCTAssertEqual(latest, 150)
    }

    /// Each pulse up to 40 frames early or late: one interval alone is off by
    /// up to 80 frames (about ±15 bpm at 150), the mean of 24 by at most
    /// 80 / 24 frames (150 × 800 / (800 ± 3.34): within ±0.63 bpm).
    func testJitteredPulsesGiveATempoSmoothedToWithinAFraction() {
        var random = SplitMix64(seed: 19)
        var tempo = MIDIClockTempo()
        var previous: Int?
        var widest = 0.0
        for pulse in 0..<400 {
            let jitter = Int(random.next() % 81) - 40
            let frame = 10_000 + 800 * pulse + jitter
            let estimate = tempo.pulse(atFrame: UInt32(frame), sampleRate: 48_000)
            if let previous { widest = max(widest, abs(48_000 * 60 / (24 * Double(frame - previous)) - 150)) }
            previous = frame
            guard pulse >= 24, let estimate else { continue }
            XCTAssertEqual(estimate, 150, accuracy: 0.63, "pulse \(pulse)")
        }
        XCTAssertGreaterThan(widest, 5, "the input's single intervals must be jittery for this to test smoothing")
    }

    /// Pulse 40 of a clock 800 frames a pulse lost in an xrun. Told of the
    /// missed cycles, the 1600-frame interval is two held intervals: two
    /// pulses, 150 bpm exactly throughout. Not told, it counts as it is: 25
    /// held pulses (24 to 49 but 40) span 20000 frames for 24 intervals,
    /// 48000 × 60 × 24 / (24 × 20000) = 144.
    func testAPulseLostInAnXrunCountsWhenToldAndOnlyThen() {
        var told = MIDIClockTempo(), untold = MIDIClockTempo()
        var lastTold: Double?, lastUntold: Double?
        for pulse in 0..<50 where pulse != 40 {
            lastTold = told.pulse(atFrame: UInt32(800 * pulse), sampleRate: 48_000, cyclesMissed: pulse == 41)
            XCTAssertEqual(told.lastPulses, pulse == 41 ? 2 : 1, "pulse \(pulse)")
            if pulse > 0 { XCTAssertEqual(lastTold, 150, "pulse \(pulse)") }
            lastUntold = untold.pulse(atFrame: UInt32(800 * pulse), sampleRate: 48_000)
        }
        XCTAssertEqual(lastTold, 150)
        XCTAssertEqual(lastUntold, 144)
    }

    /// Told of missed cycles, an interval counts as the nearest whole number
    /// of held intervals (800), from 1.5 of them up: 3200 = 4 × 800 is four
    /// pulses, 2300 (2.875 ×) three, 24000 (30 ×, more than the window
    /// holds) thirty, at 150 bpm still but for 2300's own unevenness. 1120 (1.4 ×) counts as it is:
    /// 24 intervals of which one is 1120 span 19520 frames, 48000 × 60 / 19520 = 147.54…
    func testAnIntervalCountsAsTheNearestWholeNumberOfHeldOnes() {
        for (gap, pulses) in [(3_200, 4), (2_300, 3), (24_000, 30)] {
            var tempo = MIDIClockTempo()
            for pulse in 0..<30 { _ = tempo.pulse(atFrame: UInt32(800 * pulse), sampleRate: 48_000) }
            let estimate = tempo.pulse(atFrame: UInt32(800 * 29 + gap), sampleRate: 48_000, cyclesMissed: true)
            XCTAssertEqual(tempo.lastPulses, pulses, "a gap of \(gap)")
            // 2300: the window then spans pulse 8 (6400) to 23200 + 2300, 19100 frames for 24 intervals.
            XCTAssertEqual(estimate ?? 0, gap == 2_300 ? 48_000 * 60 / 19_100.0 : 150, accuracy: 1e-9, "a gap of \(gap)")
        }
        var other = MIDIClockTempo()
        for pulse in 0..<30 { _ = other.pulse(atFrame: UInt32(800 * pulse), sampleRate: 48_000) }
        var frame = 800 * 29 + 1_120
        _ = other.pulse(atFrame: UInt32(frame), sampleRate: 48_000, cyclesMissed: true)
        XCTAssertEqual(other.lastPulses, 1)
        var latest: Double?
        for _ in 0..<23 {
            frame += 800
            latest = other.pulse(atFrame: UInt32(frame), sampleRate: 48_000)
        }
        XCTAssertEqual(latest ?? 0, 48_000 * 60 / 19_520.0, accuracy: 1e-9)
    }

    func testASilenceOfMoreThanASecondStartsAfresh() {
        var tempo = MIDIClockTempo()
        for pulse in 0..<30 { _ = tempo.pulse(atFrame: UInt32(800 * pulse), sampleRate: 48_000) }
        // 2 s later, pulses 1000 apart: no interval across the silence counts.
        let restart = UInt32(800 * 29 + 96_000)
        XCTAssertNil(tempo.pulse(atFrame: restart, sampleRate: 48_000))
        XCTAssertEqual(tempo.pulse(atFrame: restart + 1_000, sampleRate: 48_000), 120)
    }

    func testRepeatsAndAbsurdRatesStayWithinTheTempoBounds() {
        var tempo = MIDIClockTempo()
        _ = tempo.pulse(atFrame: 0, sampleRate: 48_000)
        XCTAssertNil(tempo.pulse(atFrame: 0, sampleRate: 48_000), "two pulses at one frame are no interval")
        XCTAssertEqual(tempo.pulse(atFrame: 1, sampleRate: 48_000), 300, "one frame apart: the highest tempo, not 120000")
        var slow = MIDIClockTempo()
        _ = slow.pulse(atFrame: 0, sampleRate: 48_000)
        XCTAssertEqual(slow.pulse(atFrame: 47_000, sampleRate: 48_000), 20, "47000 frames apart: the lowest tempo, not 2.55")
    }

    /// Frames counted at 48 kHz and at 96 kHz (JACK's rate changed) are no
    /// interval together: 800 frames at 48 kHz then 1600 at 96 kHz would mix
    /// into a tempo neither clock had; the count starts again at the new rate.
    func testANewSampleRateStartsAfresh() {
        var tempo = MIDIClockTempo()
        for pulse in 0..<10 { _ = tempo.pulse(atFrame: UInt32(pulse * 800), sampleRate: 48_000) }
        XCTAssertNil(tempo.pulse(atFrame: 8_800, sampleRate: 96_000), "a first pulse at the new rate")
        XCTAssertEqual(tempo.pulse(atFrame: 10_400, sampleRate: 96_000), 150, "96000 × 60 / (24 × 1600)")
    }
}
