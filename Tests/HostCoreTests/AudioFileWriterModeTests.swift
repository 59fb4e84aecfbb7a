import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// Atomic renders appear only when complete; recordings stay readable while
/// they are written and after their writer is killed.
final class AudioFileWriterModeTests: XCTestCase {
    var directory: URL!
    static let childVariable = "FXHOST_TEST_RECORDING_CHILD"

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "fxhost-files-tests")
    }

    private func exists(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private static func sine(frames: Int, sampleRate: Int) -> [Float] {
        (0..<frames).map { Float(0.5 * sin(2 * Double.pi * 1000 * Double($0) / Double(sampleRate))) }
    }

    func testAtomicFileAppearsOnlyOnFinish() throws {
        let path = directory.appendingPathComponent("render.flac").path
        let writer = try AudioFileWriter(path: path, format: .flac24, channels: 2, sampleRate: 48000, mode: .atomic)
        XCTAssertEqual(writer.writingPath, directory.appendingPathComponent(".render.flac.partial").path)
        let input = AudioFileTestSupport.noise(channels: 2, frames: 30_000, amplitude: 0.5, seed: 9)
        try AudioFileTestSupport.write(input, with: writer)
        XCTAssertFalse(exists(path), "the final name must not exist before finish")
        XCTAssertTrue(exists(writer.writingPath))
        try writer.finish()
        XCTAssertTrue(exists(path))
        XCTAssertFalse(exists(writer.writingPath))
        let (reader, output) = try AudioFileTestSupport.readAll(path)
        XCTAssertEqual(reader.frames, 30_000)
        XCTAssertEqual(output[1].count, 30_000)
        XCTAssertThrowsError(try writer.finish()) { XCTAssertEqual($0 as? AudioFileError, .closed(path: path)) }
    }

    func testAtomicFinishReplacesAnOlderFile() throws {
        let path = directory.appendingPathComponent("again.wav").path
        try AudioFileTestSupport.write([[1, 2, 3]], to: path, format: .wavFloat, sampleRate: 48000)
        let writer = try AudioFileWriter(path: path, format: .wavFloat, channels: 1, sampleRate: 48000)
        try AudioFileTestSupport.write([[0.5]], with: writer)
        XCTAssertEqual(try AudioFileReader(path: path).frames, 3, "the old file stays until finish")
        try writer.finish()
        XCTAssertEqual(try AudioFileTestSupport.readAll(path).1, [[0.5]])
    }

    /// A live `bounce` not forced checks at its start that its file does
    /// not exist, but renders for a while: a file that appears there
    /// meanwhile (another take, the user's) is left alone at the end, and
    /// what was rendered is kept under its temporary name.
    func testAnAtomicFinishNotReplacingLeavesAFileThatAppearedMeanwhile() throws {
        let path = directory.appendingPathComponent("bounce.wav").path
        let writer = try AudioFileWriter(path: path, format: .wavFloat, channels: 1, sampleRate: 48000, replacing: false)
        try AudioFileTestSupport.write([[0.5, 0.25]], with: writer)
        try "someone else's\n".write(toFile: path, atomically: false, encoding: .utf8)
        XCTAssertThrowsError(try writer.finish()) { error in
            XCTAssertTrue("\(error)".contains("appeared"), "\(error)")
        }
        XCTAssertEqual(try String(contentsOfFile: path, encoding: .utf8), "someone else's\n", "the newcomer is untouched")
        XCTAssertEqual(try AudioFileTestSupport.readAll(writer.writingPath).1, [[0.5, 0.25]], "the render is kept")
    }

    func testAnAtomicFinishNotReplacingWritesANewName() throws {
        let path = directory.appendingPathComponent("fresh.wav").path
        let writer = try AudioFileWriter(path: path, format: .wavFloat, channels: 1, sampleRate: 48000, replacing: false)
        try AudioFileTestSupport.write([[0.5]], with: writer)
        try writer.finish()
        XCTAssertEqual(try AudioFileTestSupport.readAll(path).1, [[0.5]])
        XCTAssertFalse(exists(writer.writingPath))
    }

    func testAbortLeavesNothing() throws {
        let path = directory.appendingPathComponent("failed.wav").path
        let writer = try AudioFileWriter(path: path, format: .wavFloat, channels: 1, sampleRate: 48000)
        try AudioFileTestSupport.write([[0.1, 0.2, 0.3]], with: writer)
        writer.abort()
        XCTAssertFalse(exists(path))
        XCTAssertFalse(exists(writer.writingPath))
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    func testDroppingAnUnfinishedWriterLeavesNothing() throws {
        let path = directory.appendingPathComponent("dropped.wav").path
        do {
            let writer = try AudioFileWriter(path: path, format: .wav16, channels: 1, sampleRate: 48000)
            try AudioFileTestSupport.write([[0.1, 0.2]], with: writer)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: directory.path), [])
    }

    /// A second reader opens a recording that is still being written.
    func testRecordingIsReadableWhileOpen() throws {
        let sampleRate = 48000
        let input = Self.sine(frames: 3 * sampleRate, sampleRate: sampleRate)
        for (format, name) in [(AudioFileFormat.wavFloat, "live.wav"), (.rf64, "live.rf64"), (.flac24, "live.flac")] {
            let path = directory.appendingPathComponent(name).path
            let writer = try AudioFileWriter(path: path, format: format, channels: 2, sampleRate: sampleRate,
                                             mode: .recording)
            try AudioFileTestSupport.write([input, input], with: writer)
            let (reader, output) = try AudioFileTestSupport.readAll(path)
            XCTAssertGreaterThanOrEqual(output[0].count, 2 * sampleRate, "\(format)")
            if format != .flac24 {
                XCTAssertEqual(reader.frames, 3 * sampleRate, "\(format): the header is current")
                XCTAssertEqual(output[0], input, "\(format)")
            }
            try writer.finish()
            XCTAssertEqual(try AudioFileReader(path: path).frames, 3 * sampleRate, "\(format) after finish")
        }
    }

    /// A recording whose process is killed with SIGKILL after 3 s of audio
    /// still opens with at least 2 s. The writer runs in a child process:
    /// this test binary again, whose class `setUp` records and waits.
    func testKilledRecordingIsReadable() throws {
        let formats: [(AudioFileFormat, String)] = [
            (.wavFloat, "k.wav"), (.wav16, "k16.wav"), (.rf64, "k.rf64"), (.flac24, "k.flac"),
            (.oggVorbis, "k.ogg"), (.oggOpus, "k.opus"), (.mp3, "k.mp3"),
        ]
        let sampleRate = 48000
        for (format, name) in formats {
            let path = directory.appendingPathComponent(name).path
            let ready = path + ".ready"
            let child = Process()
            child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
            child.arguments = ["HostCoreTests.AudioFileWriterModeTests/testKilledRecordingIsReadable"]
            child.environment = ProcessInfo.processInfo.environment.merging(
                [Self.childVariable: "\(format.rawValue)|\(path)"]) { $1 }
            child.standardOutput = FileHandle.nullDevice
            child.standardError = FileHandle.nullDevice
            try child.run()
            let deadline = Date().addingTimeInterval(60)
            while !exists(ready) && child.isRunning && Date() < deadline { usleep(10_000) }
            XCTAssertTrue(exists(ready), "\(format): the child did not write its 3 s")
            kill(child.processIdentifier, SIGKILL)
            child.waitUntilExit()
            XCTAssertEqual(child.terminationReason, .uncaughtSignal, "\(format)")

            let (reader, output) = try AudioFileTestSupport.readAll(path)
            XCTAssertGreaterThanOrEqual(output[0].count, 2 * sampleRate, "\(format): \(output[0].count) frames")
            if format == .flac24 {
                XCTAssertNil(reader.frames, "a killed FLAC's header leaves the length unknown")
                XCTAssertEqual(try reader.lengthInFrames(), output[0].count, "so its length is counted")
            }
            XCTAssertLessThanOrEqual(output[0].count, 3 * sampleRate + 2257, "\(format)")
            if format == .wavFloat {
                XCTAssertEqual(output[0], Self.sine(frames: 3 * sampleRate, sampleRate: sampleRate))
            }
        }
    }

    /// The child half of `testKilledRecordingIsReadable`: when this binary is
    /// started as that child, it records here, before any test of the class
    /// runs, and is killed while it sleeps. Otherwise it does nothing.
    override class func setUp() {
        super.setUp()
        guard let spec = ProcessInfo.processInfo.environment[childVariable] else { return }
        let parts = spec.split(separator: "|", maxSplits: 1).map(String.init)
        do {
            let format = try AudioFileFormat(name: parts[0])
            let sampleRate = 48000
            let writer = try AudioFileWriter(path: parts[1], format: format, channels: 2, sampleRate: sampleRate,
                                             mode: .recording)
            let input = sine(frames: 3 * sampleRate, sampleRate: sampleRate)
            // Blocks the size a tap writer drains: 100 ms.
            for start in stride(from: 0, to: input.count, by: 4800) {
                let block = Array(input[start..<min(start + 4800, input.count)])
                try AudioFileTestSupport.withPointers([block, block], offset: 0) {
                    try writer.write(channels: $0, frames: block.count)
                }
            }
            _ = FileManager.default.createFile(atPath: parts[1] + ".ready", contents: nil)
            _ = sleep(120)   // killed by the parent long before this ends
        } catch {
            FileHandle.standardError.write(Data("child recorder failed: \(error)\n".utf8))
        }
        exit(1)
    }
}
