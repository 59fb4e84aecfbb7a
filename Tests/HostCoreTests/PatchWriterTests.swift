import XCTest
@testable import HostCore

/// A patch written whole (a `--chain` run saved, or text that cannot be
/// edited in place) reads back as the same patch.
final class PatchWriterTests: XCTestCase {
    func testEveryKindOfNodeConnectionAndTapReadsBackAsWritten() throws {
        let text = """
            fxhost: 1
            name: "every kind: of node"
            nodes:
              guitar: { input: [system:capture_1, "fxhost-in:.*"] }
              two: { input: 2 }
              vox: { file: "takes/vox #1.wav", start: 1.5s, gain: -3.5dB, pan: -0.25 }
              drive: { plugin: "http://example.org/fil4#stereo", preset: "Bass boost", params: { drive: 0.6, mode: "Low pass", on: true, tiny: 0.000123 }, bypass: true }
              bus: { mix: 2 }
              trim: { gain: -6dB }
              out: { output: [system:playback_1, system:playback_2] }
              spare: { output: 1 }
              keys: { midi-input: ["system:midi_capture_1", "a2j:.*"] }
              song: { midi-file: "songs/take 2.mid", start: 250ms }
              thru: { midi-output: [] }
            connect:
              - guitar -> drive
              - two:2 -> bus:1
              - { from: vox, to: bus, gain: -12dB }
              - drive -> bus
              - bus -> trim
              - trim -> out
              - trim:1 -> spare
              - keys -> thru
              - song -> thru
            taps:
              - { at: drive, file: "takes/drive take.flac" }
              - { at: bus:2, file: bus.wav }

            """
        let patch = try PatchParser.parse(text: text, path: "p.yaml")
        let written = PatchWriter.text(of: patch)
        XCTAssertEqual(withoutLocations(try PatchParser.parse(text: written, path: "p.yaml")), withoutLocations(patch), written)
    }

    func testAParameterFloatIsWrittenByItsOwnShortestText() {
        XCTAssertEqual(YAMLText.number(Double(Float(0.501187))), "0.501187")
        XCTAssertEqual(YAMLText.number(-6), "-6")
        XCTAssertEqual(YAMLText.number(0.1), "0.1")
        XCTAssertEqual(YAMLText.string("true"), "\"true\"")
        XCTAssertEqual(YAMLText.string("12"), "\"12\"")
        XCTAssertEqual(YAMLText.string("mda/Overdrive"), "mda/Overdrive")
    }
}
