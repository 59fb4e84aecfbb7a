import XCTest
@testable import HostCore

/// `tempo:` and `meter:` at the top of a patch: read into `Patch.tempo`,
/// 120 bpm in 4/4 when absent, and mistakes named at their place.
final class TempoPatchTests: XCTestCase {
    private func patch(_ top: String) throws -> Patch {
        try PatchParser.parse(text: "fxhost: 1\n\(top)\nnodes:\n  out: { output: 1 }\n", path: "p.yaml")
    }

    func testTempoAndMeterAreRead() throws {
        XCTAssertEqual(try patch("tempo: 96.5\nmeter: 6/8").tempo, Tempo(beatsPerMinute: 96.5, beatsPerBar: 6, beatUnit: 8))
        XCTAssertEqual(try patch("meter: 3/4").tempo, Tempo(beatsPerMinute: 120, beatsPerBar: 3, beatUnit: 4))
        XCTAssertEqual(try patch("name: x").tempo, Tempo(beatsPerMinute: 120, beatsPerBar: 4, beatUnit: 4))
    }

    func testBadValuesAreNamedAtTheirPlace() {
        func failure(_ top: String) -> String { patchFailure("fxhost: 1\n\(top)\nnodes:\n  out: { output: 1 }\n") }
        let tempoRule = "`tempo` must be beats per minute, a number from 1 to 999 such as `120`"
        XCTAssertEqual(failure("tempo: fast"), "p.yaml:2:8: \(tempoRule), got \"fast\"")
        XCTAssertEqual(failure("tempo: \"120\""), "p.yaml:2:8: \(tempoRule), got \"120\"")
        XCTAssertEqual(failure("tempo: 0"), "p.yaml:2:8: \(tempoRule), got 0")
        XCTAssertEqual(failure("tempo: 1200"), "p.yaml:2:8: \(tempoRule), got 1200")
        let meterRule = "`meter` must be beats per bar and a note value such as `4/4`, `3/4` or `6/8`"
        XCTAssertEqual(failure("meter: 4"), "p.yaml:2:8: \(meterRule), got \"4\"")
        XCTAssertEqual(failure("meter: four/4"), "p.yaml:2:8: \(meterRule), got \"four/4\"")
        XCTAssertEqual(failure("meter: 0/4"), "p.yaml:2:8: `meter` must have 1 to 64 beats per bar, got 0")
        XCTAssertEqual(failure("meter: 7/6"), "p.yaml:2:10: `meter`'s note value must be 1, 2, 4, 8, 16, 32 or 64, got 6")
        XCTAssertEqual(failure("temp: 120"), "p.yaml:2:1: unknown key `temp` in the patch (did you mean `tempo`?)")
    }
}

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
