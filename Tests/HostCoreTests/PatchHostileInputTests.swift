import TestSupport
import XCTest
@testable import HostCore

/// Input meant to hurt: it must be refused quickly, with a clear sentence, without
/// exhausting memory or the stack.
final class PatchHostileInputTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "patch-hostile")
    }

    private func loadFailure(_ bytes: [UInt8], name: String = "p.yaml") throws -> String {
        let path = directory.appendingPathComponent(name).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        do {
            _ = try PatchParser.load(path: path)
            return "(parsed without error)"
        } catch {
            return error.description.replacingOccurrences(of: directory.path + "/", with: "")
        }
    }

    func testOversizedFileIsRefusedBeforeReading() throws {
        // 1.5 MiB of otherwise valid YAML comments.
        let size = 3 << 19
        let bytes = [UInt8](repeating: UInt8(ascii: "#"), count: size)
        XCTAssertEqual(try loadFailure(bytes), "p.yaml:1:1: patch file is 1.5 MiB; patches are limited to 1 MiB")
        XCTAssertEqual(patchFailure(String(repeating: "#", count: size)),
                       "p.yaml:1:1: patch file is 1.5 MiB; patches are limited to 1 MiB")
        // 3.2 MiB (3.25 shown rounded down to one decimal).
        XCTAssertEqual(patchFailure(String(repeating: "#", count: 13 << 18)),
                       "p.yaml:1:1: patch file is 3.2 MiB; patches are limited to 1 MiB")
    }

    func testExactlyOneMebibyteIsAllowed() {
        let text = "fxhost: 1\nnodes: { bus: { mix: 2 } }\n"
        let padded = text + String(repeating: "#", count: (1 << 20) - text.utf8.count)
        XCTAssertEqual(patchFailure(padded), "(parsed without error)")
    }

    func testNulBytes() throws {
        let text = "fxhost: 1\nna\u{0}me: x\n"
        XCTAssertEqual(patchFailure(text), "p.yaml:2:3: patch file contains a NUL byte; it looks like a binary file, not a YAML patch")
        XCTAssertEqual(try loadFailure(Array(text.utf8)),
                       "p.yaml:2:3: patch file contains a NUL byte; it looks like a binary file, not a YAML patch")
    }

    func testBinaryJunk() throws {
        // An ELF header: 0x7F 'E' 'L' 'F' then binary.
        XCTAssertEqual(try loadFailure([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00]),
                       "p.yaml:1:8: patch file contains a NUL byte; it looks like a binary file, not a YAML patch")
    }

    func testInvalidUTF8() throws {
        // "fxhost: 1\nname: caf" then a Latin-1 é (0xE9), not UTF-8.
        let bytes = Array("fxhost: 1\nname: caf".utf8) + [0xE9, 0x0A]
        XCTAssertEqual(try loadFailure(bytes), "p.yaml:2:10: patch file is not UTF-8 text (invalid byte 0xE9)")
    }

    func testMissingFile() {
        XCTAssertThrowsError(try PatchParser.load(path: "/nonexistent-dir/none.yaml")) { error in
            XCTAssertEqual((error as? GraphError)?.description,
                           "cannot read patch file `/nonexistent-dir/none.yaml`: No such file or directory")
        }
    }

    func testDirectoryIsNotAPatch() {
        XCTAssertThrowsError(try PatchParser.load(path: directory.path)) { error in
            XCTAssertEqual((error as? GraphError)?.description,
                           "patch file `\(directory.path)` is a directory, not a regular file; fxhost reads and writes only regular files")
        }
    }

    func testAFIFOIsNotAPatchAndDoesNotHang() throws {
        let fifo = directory.appendingPathComponent("fifo.yaml").path
        try FIFOs.make(fifo)
        let message = FIFOs.promptly(fifo) { () -> String? in
            do {
                _ = try PatchParser.load(path: fifo)
                return nil
            } catch {
                return (error as? GraphError)?.description
            }
        }
        XCTAssertEqual(message, "patch file `\(fifo)` is a FIFO, not a regular file; fxhost reads and writes only regular files")
    }

    func testASymbolicLinkLoopIsNotAPatch() throws {
        let loop = directory.appendingPathComponent("loop.yaml").path
        try FileManager.default.createSymbolicLink(atPath: loop, withDestinationPath: loop)
        XCTAssertThrowsError(try PatchParser.load(path: loop)) { error in
            XCTAssertEqual((error as? GraphError)?.description, "patch file `\(loop)` is a loop of symbolic links")
        }
    }

    /// The classic "billion laughs": 10^9 strings if expanded. Refused at the first anchor,
    /// before anything is expanded. The time bound is a loose guard against exponential
    /// work (which would take hours), not a benchmark.
    func testBillionLaughsAliasBomb() {
        var text = "fxhost: 1\na: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n"
        var previous = "a"
        for level in "bcdefghi" {
            let aliases = Array(repeating: "*\(previous)", count: 9).joined(separator: ",")
            text += "\(level): &\(level) [\(aliases)]\n"
            previous = String(level)
        }
        // The shape guard's sentence proves the text was refused before Yams composed it.
        XCTAssertEqual(patchFailure(text),
                       "p.yaml:2:4: YAML anchors and aliases are not allowed in patches (found `&a`); write the value out in full, or quote it if it is text")
    }

    /// Aliases used as mapping keys would make the composer hash an exponential tree.
    func testAliasBombAsMappingKeys() {
        let text = """
            fxhost: 1
            x: [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]
            y: { ? [*x, *x, *x, *x, *x] : 1 }
            """
        XCTAssertEqual(patchFailure(text),
                       "p.yaml:3:9: YAML anchors and aliases are not allowed in patches (found `*x`); write the value out in full, or quote it if it is text")
    }

    func testDeepFlowNestingIsRefusedWithoutOverflow() {
        // Half a megabyte of `[`: deep enough to overflow a recursive composer's stack.
        let text = "fxhost: 1\nx: " + String(repeating: "[", count: 500_000)
        // Root mapping is level 1, so the 64th `[` (column 3 + 64) is level 65.
        XCTAssertEqual(patchFailure(text), "p.yaml:2:67: YAML is nested more than 64 levels deep; patches need only a few")
    }

    func testDeepBlockNestingIsRefused() {
        // `- - - …`: each `- ` opens a nested block sequence on one line.
        let text = "fxhost: 1\nx:\n" + String(repeating: "- ", count: 100_000) + "1\n"
        XCTAssertEqual(patchFailure(text), "p.yaml:3:127: YAML is nested more than 64 levels deep; patches need only a few")
    }

    func testDeepIndentedNestingIsRefused() {
        var text = "fxhost: 1\n"
        for level in 0..<100 { text += String(repeating: " ", count: level) + "k\(level):\n" }
        // Line 1 (with `fxhost`) and line 2 are level 1; line N is at indentation N-2, level N-1: line 66 is level 65.
        XCTAssertEqual(patchFailure(text), "p.yaml:66:65: YAML is nested more than 64 levels deep; patches need only a few")
    }
}
