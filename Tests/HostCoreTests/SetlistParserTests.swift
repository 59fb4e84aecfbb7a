import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// A setlist file (`fxhost-setlist: 1`): its entries read with paths
/// resolved from the setlist's folder, mistakes named at their place, and
/// its patches checked against the first (the same ends).
final class SetlistParserTests: XCTestCase {
    private func failure(_ text: String) -> String {
        do {
            _ = try SetlistParser.parse(text: text, path: "/show/s.yaml")
            return "(parsed without error)"
        } catch {
            return error.description
        }
    }

    func testEntriesAreReadWithPathsFromTheSetlistsFolder() throws {
        let text = """
            fxhost-setlist: 1
            spillover: 2500ms
            patches:
              - { name: verse, patch: verse.yaml, program: 1 }
              - { name: solo, patch: ../other/solo.yaml }
              - { name: end, patch: /abs/end.yaml, program: 0 }
            """
        XCTAssertTrue(SetlistParser.isSetlist(text: "# a show\n\n" + text))
        XCTAssertFalse(SetlistParser.isSetlist(text: "fxhost: 1\nnodes: {}\n"))
        // Flow style, a byte-order mark, a document marker: the same setlist.
        XCTAssertTrue(SetlistParser.isSetlist(text: "{ fxhost-setlist: 1, patches: [{ name: a, patch: a.yaml }] }"))
        XCTAssertTrue(SetlistParser.isSetlist(text: "\u{FEFF}---\n\"fxhost-setlist\": 1\npatches: []\n"))
        XCTAssertFalse(SetlistParser.isSetlist(text: "fxhost-setlist: [1\n"), "not YAML: the patch reader says where")
        // Given where a patch is expected (`render`), a setlist is named for what it is.
        XCTAssertEqual(patchFailure(text), "p.yaml:1:1: this is a setlist, not a patch; `fxhost run` and `fxhost check`"
                       + " take a setlist, and the other commands one of its patches")
        let setlist = try SetlistParser.parse(text: text, path: "/show/s.yaml")
        XCTAssertEqual(setlist.spilloverSeconds, 2.5)
        XCTAssertEqual(setlist.entries.map(\.name), ["verse", "solo", "end"])
        XCTAssertEqual(setlist.entries.map(\.path), ["/show/verse.yaml", "/other/solo.yaml", "/abs/end.yaml"])
        XCTAssertEqual(setlist.entries.map(\.program), [1, nil, 0])
        XCTAssertEqual(setlist.index(named: "solo"), 1)
        XCTAssertEqual(setlist.index(program: 0), 2)
        XCTAssertNil(setlist.index(program: 2))
        XCTAssertEqual(try SetlistParser.parse(text: "fxhost-setlist: 1\npatches: [{ name: a, patch: a.yaml }]",
                                               path: "/s.yaml").spilloverSeconds, 4)
    }

    func testMistakesAreNamedAtTheirPlace() {
        let head = "fxhost-setlist: 1\npatches:\n"
        XCTAssertEqual(failure("fxhost-setlist: 2\npatches: []"),
                       "/show/s.yaml:1:17: `fxhost-setlist` must be the setlist format version 1, got \"2\"")
        XCTAssertEqual(failure("fxhost-setlist: 1\nspillover: 31s\npatches: []"),
                       "/show/s.yaml:2:12: `spillover` must be a time from 0 to 30 s such as `4s` or `500ms`, got 31s")
        XCTAssertEqual(failure("fxhost-setlist: 1\npatches: []"),
                       "/show/s.yaml:2:10: `patches` is empty; a setlist needs at least one patch, as in `- { name: verse, patch: verse.yaml, program: 1 }`")
        XCTAssertEqual(failure(head + "  - { name: a, patch: a.yaml }\n  - { name: a, patch: b.yaml }"),
                       "/show/s.yaml:4:13: two patches of the setlist are called `a` (the first on line 3); each name may be given once")
        XCTAssertEqual(failure(head + "  - { name: a, patch: a.yaml, program: 128 }"),
                       "/show/s.yaml:3:40: `program` must be a MIDI program number from 0 to 127, got 128")
        XCTAssertEqual(failure(head + "  - { name: a, patch: a.yaml, program: 5 }\n  - { name: b, patch: b.yaml, program: 5 }"),
                       "/show/s.yaml:4:40: program 5 already selects patch `a`; each program selects one patch")
        XCTAssertEqual(failure(head + "  - { name: a, patch: a.yaml, progam: 5 }"),
                       "/show/s.yaml:3:31: unknown key `progam` in a patch of the setlist (did you mean `program`?)")
        XCTAssertEqual(failure(head + "  - { name: 'a b', patch: a.yaml }"),
                       "/show/s.yaml:3:13: `name` must be a name that starts with a letter or `_` and contains only letters, digits, `_` and `-`, got \"a b\"")
        XCTAssertEqual(failure(head + "  - { name: a }"), "/show/s.yaml:3:5: patch `a` of the setlist needs `patch`, the patch file")
        let many = (0...Setlist.entryLimit).map { "  - { name: p\($0), patch: p.yaml }" }.joined(separator: "\n")
        XCTAssertEqual(failure(head + many), "/show/s.yaml:3:3: `patches` lists 257 patches; a setlist holds at most 256")
    }

    func testPatchesMustDeclareTheSameEnds() throws {
        let folder = try TestFolders.make(name, prefix: "fxhost-setlist")
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let ends = "  in: { input: 2 }\n  out: { output: 2 }\n"
        try write("a.yaml", "fxhost: 1\nnodes:\n\(ends)  g: { gain: -6dB }\nchain: [in, g, out]\n")
        try write("b.yaml", "fxhost: 1\nnodes:\n\(ends)chain: [in, out]\n")
        try write("c.yaml", "fxhost: 1\nnodes:\n  in: { input: 2 }\n  out: { output: 1 }\nchain: [in, out]\n")
        try write("d.yaml", "fxhost: 1\nnodes:\n  bad: { gain: loud }\n")
        func setlist(_ names: String...) throws -> Setlist {
            let text = "fxhost-setlist: 1\npatches:\n" + names.map { "  - { name: \($0), patch: \($0).yaml }" }.joined(separator: "\n")
            let path = folder.appendingPathComponent("show.yaml").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return try SetlistParser.load(path: path)
        }
        XCTAssertEqual(try setlist("a", "b").readPatches().map(\.nodes.count), [3, 2])
        let path = folder.path
        XCTAssertThrowsError(try setlist("a", "c").readPatches()) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path)/c.yaml:4:3: node `out` differs from the first patch's; every patch"), "\(error)")
        }
        XCTAssertThrowsError(try setlist("a", "d").readPatches()) { error in
            XCTAssertEqual("\(error)", "\(path)/d.yaml:3:16: `gain` must be a gain in dB such as `-3dB`, got \"loud\"")
        }
        XCTAssertThrowsError(try setlist("a", "e").readPatches()) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path)/show.yaml:4:13: "), "\(error)")
        }
    }

    /// A later patch's `clock:` must be the first's (its ports are made once,
    /// at start): one that differs, or is missing, is refused at that patch.
    func testPatchesMustDeclareTheSameClock() throws {
        let folder = try TestFolders.make(name, prefix: "fxhost-setlist")
        func write(_ name: String, _ text: String) throws {
            try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let body = "fxhost: 1\nnodes:\n  in: { input: 2 }\n  out: { output: 2 }\nchain: [in, out]\n"
        try write("a.yaml", body + "clock: { input: [system:midi_capture_1] }\n")
        try write("b.yaml", body + "clock: { input: [system:midi_capture_1] }\n")
        try write("c.yaml", body + "clock: { output: [system:midi_playback_1] }\n")
        try write("d.yaml", body)
        func setlist(_ names: String...) throws -> Setlist {
            let text = "fxhost-setlist: 1\npatches:\n" + names.map { "  - { name: \($0), patch: \($0).yaml }" }.joined(separator: "\n")
            let path = folder.appendingPathComponent("show.yaml").path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return try SetlistParser.load(path: path)
        }
        XCTAssertEqual(try setlist("a", "b").readPatches().count, 2)
        let path = folder.path
        XCTAssertThrowsError(try setlist("a", "c").readPatches()) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path)/c.yaml:6:8: `clock:` differs from the first patch's"), "\(error)")
        }
        XCTAssertThrowsError(try setlist("a", "d").readPatches()) { error in
            XCTAssertTrue("\(error)".hasPrefix("\(path)/d.yaml:1:1: `clock:` differs from the first patch's"), "\(error)")
        }
    }
}
