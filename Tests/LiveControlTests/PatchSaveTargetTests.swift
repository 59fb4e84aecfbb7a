import Foundation
@testable import LiveControl
import TestSupport
import XCTest

/// `save FILE` writes a temporary file and renames it over FILE: over a
/// FIFO, a device or a directory that would hide what was there, so such a
/// FILE is refused, with one sentence, and left as it was.
final class PatchSaveTargetTests: XCTestCase {
    private func refusal(_ path: String) -> String? {
        do {
            try LivePatchFile.writeAtomically("fxhost: 1\n", to: path)
            return nil
        } catch {
            return error.description
        }
    }

    func testAFIFOOrADirectoryIsNotReplaced() throws {
        let folder = try TestFolders.make(name, prefix: "fxhost-save-target-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo.yaml").path
        try FIFOs.make(fifo)
        XCTAssertEqual(FIFOs.promptly(fifo) { self.refusal(fifo) } ?? nil,
                       "cannot save the patch: `\(fifo)` is a FIFO, not a regular file; fxhost reads and writes only regular files")
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is as it was")

        let directory = folder.appendingPathComponent("dir.yaml").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        XCTAssertEqual(refusal(directory),
                       "cannot save the patch: `\(directory)` is a directory, not a regular file; fxhost reads and writes only regular files")

        let loop = folder.appendingPathComponent("loop.yaml").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        XCTAssertEqual(refusal(loop), "cannot save the patch: `\(loop)` is a loop of symbolic links")

        let regular = folder.appendingPathComponent("patch.yaml").path
        XCTAssertNil(refusal(regular))
        XCTAssertNil(refusal(regular), "a regular file is replaced")
        XCTAssertEqual(try String(contentsOfFile: regular, encoding: .utf8), "fxhost: 1\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("fxhost-save") }
        XCTAssertEqual(leftovers, [])
    }

    /// `save FILE` unforced: the dispatcher refuses a FILE that exists, and
    /// the rename refuses one that appeared after that check (a symbolic
    /// link too), leaving it as it was and no temporary file behind.
    func testASaveNotReplacingLeavesAFileThatAppearedMeanwhile() throws {
        let folder = try TestFolders.make(name, prefix: "fxhost-save-target-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let existing = folder.appendingPathComponent("mine.yaml").path
        try "my own text\n".write(toFile: existing, atomically: false, encoding: .utf8)
        let link = folder.appendingPathComponent("link.yaml").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: existing)
        for path in [existing, link] {
            XCTAssertThrowsError(try LivePatchFile.writeAtomically("fxhost: 1\n", to: path, replacing: false)) { error in
                XCTAssertTrue("\(error)".contains("only when forced"), "\(error)")
            }
        }
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "my own text\n")
        XCTAssertEqual(try FileManager.default.destinationOfSymbolicLink(atPath: link), existing)
        let fresh = folder.appendingPathComponent("fresh.yaml").path
        try LivePatchFile.writeAtomically("fxhost: 1\n", to: fresh, replacing: false)
        XCTAssertEqual(try String(contentsOfFile: fresh, encoding: .utf8), "fxhost: 1\n")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("fxhost-save") }
        XCTAssertEqual(leftovers, [])
    }
}
