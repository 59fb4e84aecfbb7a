import Foundation
import Glibc
import TestSupport
import XCTest
@testable import HostCore

/// The one check that fxhost opens only regular files: a FIFO, a
/// directory, a device or a socket is refused with a sentence that names
/// it, and promptly (an open of a FIFO would otherwise wait for its other
/// end forever); a symbolic link to a regular file is followed, and a loop
/// of them is called a loop.
final class RegularFileTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = try TestFolders.make(name, prefix: "fxhost-regular-file-tests")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(at: folder)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func makeFIFO(_ name: String) throws -> String {
        let fifo = path(name)
        try FIFOs.make(fifo)
        return fifo
    }

    private func promptly<T>(_ fifo: String, _ body: @escaping () -> T,
                             file: StaticString = #filePath, line: UInt = #line) -> T? {
        FIFOs.promptly(fifo, body, file: file, line: line)
    }

    private func readRefusal(_ path: String) -> RegularFileRefusal? {
        do {
            close(try RegularFile.openForReading(path))
            return nil
        } catch {
            return error
        }
    }

    private func writeRefusal(_ path: String) -> RegularFileRefusal? {
        do {
            close(try RegularFile.openForWriting(path, truncate: true))
            return nil
        } catch {
            return error
        }
    }

    func testAFIFOIsRefusedForReadingAndWritingWithoutWaiting() throws {
        let fifo = try makeFIFO("fifo.wav")
        let sentence = "`\(fifo)` is a FIFO, not a regular file; fxhost reads and writes only regular files"
        XCTAssertEqual(promptly(fifo) { self.readRefusal(fifo) }??.description, sentence)
        XCTAssertEqual(promptly(fifo) { self.writeRefusal(fifo) }??.description, sentence)
        XCTAssertEqual(promptly(fifo) { () -> RegularFileRefusal? in
            do { try RegularFile.requireReadable(fifo); return nil } catch { return error as? RegularFileRefusal }
        }??.reason, .notRegular(.fifo))
        XCTAssertThrowsError(try RegularFile.requireReplaceable(fifo))
        XCTAssertEqual(promptly(fifo) { () -> RegularFileRefusal? in
            do { _ = try RegularFile.read(fifo, limit: 100); return nil } catch { return error as? RegularFileRefusal }
        }??.reason, .notRegular(.fifo))
    }

    func testAFIFOWithAWriterIsStillRefused() throws {
        // With its other end open, opening it would not block: fstat still says what it is.
        let fifo = try makeFIFO("open.fifo")
        let other = open(fifo, O_RDWR | O_NONBLOCK)
        XCTAssertGreaterThanOrEqual(other, 0)
        defer { close(other) }
        XCTAssertEqual(readRefusal(fifo)?.reason, .notRegular(.fifo))
        XCTAssertEqual(writeRefusal(fifo)?.reason, .notRegular(.fifo))
    }

    func testADirectoryIsRefused() {
        let sentence = "`\(folder.path)` is a directory, not a regular file; fxhost reads and writes only regular files"
        XCTAssertEqual(readRefusal(folder.path)?.description, sentence)
        XCTAssertEqual(writeRefusal(folder.path)?.description, sentence)
        XCTAssertEqual((try? RegularFile.requireReplaceable(folder.path)) == nil, true)
    }

    func testDevicesAreRefused() {
        let sentence = "`/dev/null` is a character device, not a regular file; fxhost reads and writes only regular files"
        XCTAssertEqual(readRefusal("/dev/null")?.description, sentence)
        XCTAssertEqual(writeRefusal("/dev/null")?.description, sentence)
        XCTAssertEqual(writeRefusal("/dev/full")?.reason, .notRegular(.characterDevice))
    }

    func testASocketIsRefused() throws {
        let socketPath = path("s.wav")
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        defer { close(descriptor) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        try XCTSkipIf(bytes.count >= MemoryLayout.size(ofValue: address.sun_path), "scratch path too long for a socket")
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        XCTAssertEqual(bound, 0)
        let sentence = "`\(socketPath)` is a socket, not a regular file; fxhost reads and writes only regular files"
        XCTAssertEqual(readRefusal(socketPath)?.description, sentence)
        XCTAssertEqual(writeRefusal(socketPath)?.description, sentence)
    }

    func testARegularFileAndASymbolicLinkToOneAreOpened() throws {
        let file = path("take.wav")
        try Data("abc".utf8).write(to: URL(fileURLWithPath: file))
        let link = path("link.wav")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        XCTAssertNil(readRefusal(file))
        XCTAssertNil(readRefusal(link))
        XCTAssertEqual(try RegularFile.read(link, limit: 100), Array("abc".utf8))
        XCTAssertNoThrow(try RegularFile.requireReadable(link))
        XCTAssertNoThrow(try RegularFile.requireReplaceable(link))

        // The descriptor blocks again once the check is done.
        let descriptor = try RegularFile.openForReading(file)
        defer { close(descriptor) }
        XCTAssertEqual(fcntl(descriptor, F_GETFL) & O_NONBLOCK, 0)
        XCTAssertNotEqual(fcntl(descriptor, F_GETFD) & FD_CLOEXEC, 0)
    }

    func testWritingCreatesAMissingFileAndEmptiesAnExistingOne() throws {
        let new = path("new.wav")
        XCTAssertNoThrow(try RegularFile.requireReplaceable(new))
        close(try RegularFile.openForWriting(new, truncate: true))
        XCTAssertTrue(FileManager.default.fileExists(atPath: new))

        let old = path("old.wav")
        try Data("12345".utf8).write(to: URL(fileURLWithPath: old))
        close(try RegularFile.openForWriting(old, truncate: false))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: old)).count, 5)
        close(try RegularFile.openForWriting(old, truncate: true))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: old)).count, 0)
    }

    func testASymbolicLinkLoopIsCalledALoop() throws {
        let a = path("a.wav"), b = path("b.wav")
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
        XCTAssertEqual(readRefusal(a)?.description, "`\(a)` is a loop of symbolic links")
        XCTAssertEqual(writeRefusal(a)?.description, "`\(a)` is a loop of symbolic links")
        XCTAssertThrowsError(try RegularFile.requireReplaceable(a)) { error in
            XCTAssertEqual((error as? RegularFileRefusal)?.reason, .symbolicLinkLoop)
        }
    }

    func testAMissingFileIsMissing() {
        let refusal = readRefusal(path("none.wav"))
        XCTAssertEqual(refusal?.isMissing, true)
        XCTAssertEqual(refusal?.systemMessage, "No such file or directory")
    }

    func testReadingStopsOneBytePastTheLimit() throws {
        let file = path("big.yaml")
        try Data(repeating: 0x41, count: 5000).write(to: URL(fileURLWithPath: file))
        XCTAssertEqual(try RegularFile.read(file, limit: 1000).count, 1001)
        XCTAssertEqual(try RegularFile.read(file, limit: 5000).count, 5000)
        XCTAssertEqual(try RegularFile.read("/proc/self/stat", limit: 1 << 16).isEmpty, false,
                       "a file whose size says 0 is read to its end")
    }
}
