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
        XCTAssertEqual(try patch("tempo: 20").tempo.beatsPerMinute, 20)
        XCTAssertEqual(try patch("tempo: 300").tempo.beatsPerMinute, 300)
        XCTAssertEqual(try patch("name: x").tempo, Tempo(beatsPerMinute: 120, beatsPerBar: 4, beatUnit: 4))
    }

    func testBadValuesAreNamedAtTheirPlace() {
        func failure(_ top: String) -> String { patchFailure("fxhost: 1\n\(top)\nnodes:\n  out: { output: 1 }\n") }
        let tempoRule = "`tempo` must be beats per minute, a number from 20 to 300 such as `120`"
        XCTAssertEqual(failure("tempo: fast"), "p.yaml:2:8: \(tempoRule), got \"fast\"")
        XCTAssertEqual(failure("tempo: \"120\""), "p.yaml:2:8: \(tempoRule), got \"120\"")
        XCTAssertEqual(failure("tempo: 0"), "p.yaml:2:8: \(tempoRule), got 0")
        XCTAssertEqual(failure("tempo: 1200"), "p.yaml:2:8: \(tempoRule), got 1200")
        XCTAssertEqual(failure("tempo: 19.9"), "p.yaml:2:8: \(tempoRule), got 19.9")
        XCTAssertEqual(failure("tempo: 301"), "p.yaml:2:8: \(tempoRule), got 301")
        let meterRule = "`meter` must be beats per bar and a note value such as `4/4`, `3/4` or `6/8`"
        XCTAssertEqual(failure("meter: 4"), "p.yaml:2:8: \(meterRule), got \"4\"")
        XCTAssertEqual(failure("meter: four/4"), "p.yaml:2:8: \(meterRule), got \"four/4\"")
        XCTAssertEqual(failure("meter: 0/4"), "p.yaml:2:8: `meter` must have 1 to 64 beats per bar, got 0")
        XCTAssertEqual(failure("meter: 7/6"), "p.yaml:2:10: `meter`'s note value must be 1, 2, 4, 8, 16, 32 or 64, got 6")
        XCTAssertEqual(failure("temp: 120"), "p.yaml:2:1: unknown key `temp` in the patch (did you mean `tempo`?)")
    }
}
