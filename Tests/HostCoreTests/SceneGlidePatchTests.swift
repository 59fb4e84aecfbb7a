import XCTest
@testable import HostCore

/// `glide:` on a program change's scene: read as a time, bounded before it
/// is used, refused at its file:line:column (columns counted by hand from
/// the YAML line 9, `    - { program: 2, scene: lead, glide: … }`: the
/// value starts at column 41), and written back as read so `save` keeps it.
final class SceneGlidePatchTests: XCTestCase {
    private static let nodes = """
        fxhost: 1
        nodes:
          amp: { plugin: test }
          room: { plugin: test }
          out: { output: 1 }
        chain: [amp, room, out]

        """

    private func patch(_ entry: String) -> String {
        Self.nodes + "midi-control:\n  map:\n    - \(entry)\nscenes:\n  lead: { room: { mix: 0.4 } }\n"
    }

    func testAGlideReadsAsSecondsAndWritesBackAsRead() throws {
        for (text, seconds, written) in [("500ms", 0.5, "500ms"), ("2s", 2.0, "2s"), ("1.5", 1.5, "1.5s"), ("60s", 60.0, "60s")] {
            let read = try PatchParser.parse(text: patch("{ program: 2, scene: lead, glide: \(text) }"), path: "p.yaml")
            XCTAssertEqual(read.midiControl.mappings.first?.glide, seconds, text)
            XCTAssertEqual("\(read.midiControl.mappings[0])", "{ program: 2, scene: lead, glide: \(written) }")
            // What `save` writes reads back to the same mapping.
            let section = MIDIControlSection.section(read.midiControl, unlessSameAs: MIDIControl())?.lines.joined(separator: "\n") ?? ""
            let again = try PatchParser.parse(text: Self.nodes + section + "\nscenes:\n  lead: { room: { mix: 0.4 } }\n", path: "p.yaml")
            XCTAssertEqual(again.midiControl.mappings.map(\.glide), [seconds], text)
        }
        let plain = try PatchParser.parse(text: patch("{ program: 2, scene: lead }"), path: "p.yaml")
        XCTAssertNil(plain.midiControl.mappings.first?.glide, "no glide: the scene switches in one block")
        XCTAssertEqual("\(plain.midiControl.mappings[0])", "{ program: 2, scene: lead }")
    }

    func testBadGlidesAreRefusedAtTheirPlace() {
        XCTAssertEqual(patchFailure(patch("{ program: 2, scene: lead, glide: -1s }")),
                       "p.yaml:9:41: a glide cannot be negative, got -1s")
        XCTAssertEqual(patchFailure(patch("{ program: 2, scene: lead, glide: 90s }")),
                       "p.yaml:9:41: a glide lasts at most 60s, got 90s")
        XCTAssertEqual(patchFailure(patch("{ program: 2, scene: lead, glide: 86400s }")),
                       "p.yaml:9:41: a glide lasts at most 60s, got 86400s")
        XCTAssertEqual(patchFailure(patch("{ program: 2, scene: lead, glide: slow }")),
                       "p.yaml:9:41: a glide is a time such as `2s` or `500ms`, not `slow`")
        XCTAssertEqual(patchFailure(patch("{ program: 2, scene: lead, glide: [1] }")),
                       "p.yaml:9:41: `glide` must be a time such as `2s` or `500ms`, got a list")
        XCTAssertEqual(patchFailure(patch("{ cc: 7, to: amp:gain, glide: 1s }")),
                       "p.yaml:9:30: `glide` belongs to a program change's scene (as in `{ program: 3, scene: lead, glide: 500ms }`)")
    }
}
