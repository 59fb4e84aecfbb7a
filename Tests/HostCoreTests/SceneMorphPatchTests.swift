import XCTest
@testable import HostCore

/// `morph: [first, second]` on a controller: two declared scenes, written back as read.
final class SceneMorphPatchTests: XCTestCase {
    private func patch(_ entry: String) -> String {
        """
        fxhost: 1
        nodes:
          amp: { plugin: test }
          out: { output: 1 }
        chain: [amp, out]
        midi-control:
          map:
            - \(entry)
        scenes:
          clean: { amp: { gain: 0 } }
          lead: { amp: { gain: -12 } }

        """
    }

    func testAMorphReadsAndWritesBack() throws {
        let read = try PatchParser.parse(text: patch("{ cc: 11, morph: [clean, lead] }"), path: "p.yaml")
        XCTAssertEqual(read.midiControl.mappings.map(\.target), [.morph("clean", "lead")])
        XCTAssertEqual("\(read.midiControl.mappings[0])", "{ cc: 11, morph: [clean, lead] }")
    }

    /// Columns counted by hand on `    - { cc: 11, morph: [clean, leed] }` (line 8).
    func testBadMorphsAreRefusedAtTheirPlace() {
        XCTAssertEqual(patchFailure(patch("{ cc: 11, morph: [clean, leed] }")),
                       "p.yaml:8:32: unknown scene `leed`; the patch's scenes are `clean`, `lead` (did you mean `lead`?)")
        XCTAssertEqual(patchFailure(patch("{ cc: 11, morph: [clean] }")),
                       "p.yaml:8:24: `morph` must be exactly two scene names such as `[clean, lead]`, got 1")
        XCTAssertEqual(patchFailure(patch("{ cc: 11, morph: [clean, lead], to: amp:gain }")),
                       "p.yaml:8:39: a morph blends two scenes: give it `morph`, not `to`")
    }
}
