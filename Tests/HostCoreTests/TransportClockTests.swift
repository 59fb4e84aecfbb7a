import XCTest
@testable import HostCore

/// The host's own transport against arithmetic: beats fall where
/// frames × bpm / (60 × rate) says, bars where the meter says, and a jump
/// (tempo, meter, speed, relocation) changes the generation while rolling on
/// does not.
final class TransportClockTests: XCTestCase {
    func testBeatsAndBarsFollowTheFrames() {
        var clock = TransportClock(tempo: Tempo(beatsPerMinute: 120, beatsPerBar: 3, beatUnit: 4), sampleRate: 48_000)
        let first = clock.position(advancingBy: 512)
        XCTAssertEqual(first.frame, 0)
        XCTAssertEqual(first.speed, 1)
        XCTAssertEqual(first.beat, 0)
        for _ in 0..<((24_000 * 7) / 512) { _ = clock.position(advancingBy: 512) }
        let later = clock.position(advancingBy: 0)
        let frame = Int64((24_000 * 7) / 512 * 512 + 512)
        XCTAssertEqual(later.frame, frame)
        XCTAssertEqual(later.beat, Double(frame) / 24_000, accuracy: 1e-9)
        XCTAssertEqual(later.bar, Int64(later.beat / 3))
        XCTAssertEqual(later.barBeat, later.beat - 3 * Double(later.bar), accuracy: 1e-9)
        XCTAssertEqual(later.generation, first.generation, "rolling on is no jump")
        XCTAssertEqual(later.beatsPerBar, 3)
        XCTAssertEqual(later.beatUnit, 4)
    }

    func testTempoChangesKeepTheBeatAndCountAsJumps() {
        var clock = TransportClock(tempo: Tempo(beatsPerMinute: 120), sampleRate: 48_000)
        _ = clock.position(advancingBy: 48_000)  // two beats at 120
        let before = clock.current
        clock.setTempo(Tempo(beatsPerMinute: 60))
        let after = clock.current
        XCTAssertEqual(after.beat, 2, accuracy: 1e-12)
        XCTAssertNotEqual(after.generation, before.generation)
        _ = clock.position(advancingBy: 48_000)  // one beat at 60
        XCTAssertEqual(clock.current.beat, 3, accuracy: 1e-12)
        XCTAssertEqual(clock.current.beatsPerMinute, 60)
        clock.setRolling(false)
        let stopped = clock.position(advancingBy: 48_000)
        XCTAssertEqual(stopped.speed, 0)
        XCTAssertEqual(clock.current.frame, 96_000, "a stopped transport stays where it is")
        clock.locate(48_000 * 4)
        XCTAssertEqual(clock.current.beat, 5, accuracy: 1e-12, "3 beats, then 2 s more at 60 bpm")
        XCTAssertEqual(clock.current.bar, 1)
        XCTAssertEqual(clock.current.barBeat, 1, accuracy: 1e-12)
    }

    func testARenderFromLaterStartsWhereTheMusicIs() {
        let clock = TransportClock(tempo: Tempo(beatsPerMinute: 90), sampleRate: 44_100, frame: 44_100 * 10)
        XCTAssertEqual(clock.current.beat, 15, accuracy: 1e-9)
        XCTAssertEqual(clock.current.bar, 3)
        XCTAssertEqual(clock.current.barBeat, 3, accuracy: 1e-9)
    }
}
