import XCTest
@testable import HostCore

/// `clock:` at the top of a patch: its `input` and `output` ports read into
/// `Patch.clock`, mistakes named at their place, and written back as read.
final class MIDIClockPatchTests: XCTestCase {
    private func patch(_ top: String) throws -> Patch {
        try PatchParser.parse(text: "fxhost: 1\n\(top)\nnodes:\n  out: { output: 1 }\n", path: "p.yaml")
    }

    func testInputAndOutputPortsAreRead() throws {
        XCTAssertEqual(try patch("clock: { input: [a:midi_out] }").clock, MIDIClockPorts(inputs: ["a:midi_out"]))
        XCTAssertEqual(try patch("clock: { output: [b:in, \"c:*\"] }").clock, MIDIClockPorts(outputs: ["b:in", "c:*"]))
        XCTAssertEqual(try patch("clock:\n  input: a:out\n  output: [b:in]").clock,
                       MIDIClockPorts(inputs: ["a:out"], outputs: ["b:in"]))
        XCTAssertEqual(try patch("clock: { input: [] }").clock, MIDIClockPorts(inputs: []), "a port connected by hand")
        XCTAssertTrue(try patch("name: x").clock.isEmpty, "no `clock:`, no clock ports")
    }

    func testMistakesAreNamedAtTheirPlace() {
        func failure(_ top: String) -> String { patchFailure("fxhost: 1\n\(top)\nnodes:\n  out: { output: 1 }\n") }
        let example = "`clock: { input: [system:midi_capture_1] }` or `clock: { output: [system:midi_playback_1] }`"
        XCTAssertEqual(failure("clock: { inptu: [a:b] }"),
                       "p.yaml:2:10: unknown key `inptu` in `clock` (did you mean `input`?)")
        XCTAssertEqual(failure("clock: a:b"),
                       "p.yaml:2:8: `clock` must be a mapping with `input` and/or `output` ports, such as \(example), got \"a:b\"")
        XCTAssertEqual(failure("clock: { input: }"),
                       "p.yaml:2:17: `input` must be a list of JACK MIDI port names (or patterns), got nothing")
        XCTAssertEqual(failure("clock: {}"), "p.yaml:2:8: `clock` needs `input` or `output` ports, such as \(example)")
        XCTAssertEqual(failure("clock: { input: [1, \"\"] }"),
                       "p.yaml:2:21: `input` ports must be JACK MIDI port names such as `system:midi_capture_1`, got \"\"")
        XCTAssertEqual(failure("clok: { input: [a:b] }"), "p.yaml:2:1: unknown key `clok` in the patch (did you mean `clock`?)")
    }

    /// What the writer writes reads back as the same clock (a save keeps it).
    func testTheWriterWritesTheClockBack() throws {
        var original = try patch("clock: { input: [\"drum machine:out\"], output: [b:in] }")
        original.sourcePath = nil
        let text = PatchWriter.text(of: original)
        XCTAssertTrue(text.contains("\nclock: { input: ["), text)
        XCTAssertEqual(try PatchParser.parse(text: text, path: "q.yaml").clock, original.clock, text)
    }
}
