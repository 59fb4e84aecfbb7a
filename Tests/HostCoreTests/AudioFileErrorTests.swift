import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// Every failure is one sentence naming the file or format and what works.
final class AudioFileErrorTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "fxhost-files-tests")
    }

    private func readerError(_ path: String) -> AudioFileError? {
        do {
            _ = try AudioFileReader(path: path)
            return nil
        } catch {
            return error
        }
    }

    private func writerError(_ path: String, format: AudioFileFormat, sampleRate: Int = 48000,
                             mode: AudioFileWriter.Mode = .atomic) -> AudioFileError? {
        do {
            _ = try AudioFileWriter(path: path, format: format, channels: 2, sampleRate: sampleRate, mode: mode)
            return nil
        } catch {
            return error
        }
    }

    func testMissingFile() {
        let path = directory.appendingPathComponent("nothing.wav").path
        XCTAssertEqual(readerError(path), .fileNotFound(path: path))
        XCTAssertEqual(readerError(path)?.description, "audio file `\(path)` does not exist.")
    }

    func testDirectoryAsInput() {
        XCTAssertEqual(readerError(directory.path), .isDirectory(path: directory.path))
        XCTAssertEqual(readerError(directory.path)?.description,
                       "`\(directory.path)` is a directory, not a regular file; fxhost reads and writes only regular files.")
    }

    func testTextFileAsInput() throws {
        let path = directory.appendingPathComponent("notes.wav").path
        try "these are not samples\n".write(toFile: path, atomically: false, encoding: .utf8)
        guard case .notAudio(let reported, let reason)? = readerError(path) else {
            return XCTFail("expected notAudio, got \(String(describing: readerError(path)))")
        }
        XCTAssertEqual(reported, path)
        XCTAssertFalse(reason.isEmpty, "libsndfile's reason is passed on")
        let sentence = readerError(path)!.description
        XCTAssertTrue(sentence.hasPrefix("`\(path)` is not an audio file that can be read ("), sentence)
        XCTAssertEqual(sentence.filter { $0 == "\n" }.count, 0)
    }

    func testUnwritableDirectory() throws {
        // Root ignores permission bits, so use a directory the kernel refuses.
        let locked: String
        if geteuid() == 0 {
            locked = "/sys"
        } else {
            locked = directory.appendingPathComponent("locked").path
            try FileManager.default.createDirectory(atPath: locked, withIntermediateDirectories: false)
            chmod(locked, 0o555)
        }
        defer { chmod(locked, 0o755) }
        let path = locked + "/out.wav"
        for mode in [AudioFileWriter.Mode.atomic, .recording] {
            do {
                _ = try AudioFileWriter(path: path, format: .wavFloat, channels: 2, sampleRate: 48000, mode: mode)
                XCTFail("created a file in \(locked)")
            } catch {
                XCTAssertEqual(error, .cannotCreate(path: path, reason: "Permission denied"))
                XCTAssertEqual(error.description, "cannot create audio file `\(path)`: Permission denied.")
            }
        }
    }

    func testMissingDirectory() {
        let path = directory.appendingPathComponent("no/such/dir/out.flac").path
        XCTAssertEqual(writerError(path, format: .flac24), .cannotCreate(path: path, reason: "No such file or directory"))
    }

    func testADeviceIsNoFileToWrite() {
        // /dev/full (which fails every write) is refused before it is opened.
        for mode in [AudioFileWriter.Mode.atomic, .recording] {
            XCTAssertEqual(writerError("/dev/full", format: .wavFloat, mode: mode),
                           .notRegularFile(path: "/dev/full", kind: "a character device"))
        }
        XCTAssertEqual(readerError("/dev/null")?.description,
                       "`/dev/null` is a character device, not a regular file; fxhost reads and writes only regular files.")
    }

    func testAFIFOIsRefusedWithoutWaitingForItsOtherEnd() throws {
        let fifo = directory.appendingPathComponent("fifo.wav").path
        try FIFOs.make(fifo)
        let sentence = "`\(fifo)` is a FIFO, not a regular file; fxhost reads and writes only regular files."
        XCTAssertEqual(FIFOs.promptly(fifo) { self.readerError(fifo) }??.description, sentence)
        // A take into it (recording mode), and a render whose output it is (atomic mode: renamed over it).
        for mode in [AudioFileWriter.Mode.recording, .atomic] {
            XCTAssertEqual(FIFOs.promptly(fifo) { self.writerError(fifo, format: .wavFloat, mode: mode) } ?? nil,
                           .notRegularFile(path: fifo, kind: "a FIFO"))
            XCTAssertFalse(FileManager.default.fileExists(atPath: AudioFileWriter.partialPath(for: fifo)))
        }
        var info = stat()
        XCTAssertEqual(lstat(fifo, &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is left as it was")
    }

    func testASymbolicLinkLoopIsALoopNotAMissingFile() throws {
        let a = directory.appendingPathComponent("a.wav").path, b = directory.appendingPathComponent("b.wav").path
        try FileManager.default.createSymbolicLink(atPath: a, withDestinationPath: b)
        try FileManager.default.createSymbolicLink(atPath: b, withDestinationPath: a)
        XCTAssertEqual(readerError(a)?.description, "`\(a)` is a loop of symbolic links.")
        XCTAssertEqual(writerError(a, format: .wavFloat, mode: .recording), .symbolicLinkLoop(path: a))
        XCTAssertEqual(writerError(a, format: .wavFloat, mode: .atomic), .symbolicLinkLoop(path: a))
    }

    func testASymbolicLinkToAnAudioFileIsRead() throws {
        let file = directory.appendingPathComponent("real.wav").path
        let writer = try AudioFileWriter(path: file, format: .wavFloat, channels: 1, sampleRate: 48000)
        try AudioFileTestSupport.write([[0.5, 0.25]], with: writer)
        try writer.finish()
        let link = directory.appendingPathComponent("link.wav").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        let reader = try AudioFileReader(path: link)
        XCTAssertEqual(reader.frames, 2)
    }

    func testWriteFailureNamesThePath() throws {
        // A file size limit makes writes fail part-way (EFBIG), like a disk
        // filling up during a render. SIGXFSZ is ignored so the write returns.
        var saved = rlimit()
        getrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
        let savedHandler = signal(SIGXFSZ, SIG_IGN)
        defer {
            setrlimit(Int32(RLIMIT_FSIZE.rawValue), &saved)
            signal(SIGXFSZ, savedHandler)
        }
        let path = directory.appendingPathComponent("big.wav").path
        let writer = try AudioFileWriter(path: path, format: .wavFloat, channels: 1, sampleRate: 48000)
        var limit = rlimit(rlim_cur: 100_000, rlim_max: saved.rlim_max)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_FSIZE.rawValue), &limit), 0)
        let samples = [Float](repeating: 0.1, count: 48000)   // 192 kB
        XCTAssertThrowsError(try AudioFileTestSupport.write([samples], with: writer)) { error in
            XCTAssertEqual(error as? AudioFileError, .writeFailed(path: path, reason: "file too large"))
        }
        writer.abort()
        XCTAssertFalse(FileManager.default.fileExists(atPath: writer.writingPath))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path))
    }

    func testFormatFromExtension() throws {
        let expected: [(String, AudioFileFormat)] = [
            ("a.wav", .wavFloat), ("b.WAV", .wavFloat), ("c.rf64", .rf64), ("d.flac", .flac24),
            ("e.ogg", .oggVorbis), ("f.oga", .oggVorbis), ("g.opus", .oggOpus), ("dir.x/h.mp3", .mp3),
        ]
        for (path, format) in expected {
            XCTAssertEqual(try AudioFileFormat(path: path), format, path)
        }
    }

    func testExplicitNameWinsOverExtension() throws {
        XCTAssertEqual(try AudioFileFormat(path: "take.wav", name: "wav16"), .wav16)
        XCTAssertEqual(try AudioFileFormat(path: "take.raw", name: "flac16"), .flac16)
        XCTAssertEqual(try AudioFileFormat(path: "take.opus", name: nil), .oggOpus)
        XCTAssertThrowsError(try AudioFileFormat(path: "take.wav", name: "wave")) {
            XCTAssertEqual($0 as? AudioFileError, .unknownFormatName("wave"))
        }
    }

    func testUnknownExtensionListsTheAcceptedOnes() {
        for path in ["take.aiff", "take", ".wav", "dir.wav/take"] {
            XCTAssertThrowsError(try AudioFileFormat(path: path)) { error in
                XCTAssertEqual(error as? AudioFileError, .unknownExtension(path: path))
                XCTAssertEqual("\(error)",
                    "cannot tell the audio format of `\(path)` from its extension; use one of "
                    + ".wav .rf64 .flac .ogg .oga .opus .mp3 or name a format "
                    + "(wav, wav16, wav24, rf64, flac, flac16, flac24, ogg, opus, mp3).")
            }
        }
    }

    func testFormatNames() throws {
        let expected: [String: AudioFileFormat] = [
            "wav": .wavFloat, "wav16": .wav16, "wav24": .wav24, "rf64": .rf64, "flac": .flac24,
            "flac16": .flac16, "FLAC24": .flac24, "ogg": .oggVorbis, "opus": .oggOpus, "mp3": .mp3,
        ]
        for (name, format) in expected {
            XCTAssertEqual(try AudioFileFormat(name: name), format, name)
        }
        XCTAssertEqual(Set(AudioFileFormat.acceptedNames).count, expected.count)
        XCTAssertThrowsError(try AudioFileFormat(name: "aiff")) { error in
            XCTAssertEqual("\(error)", "unknown audio format `aiff`; the accepted formats are "
                + "wav, wav16, wav24, rf64, flac, flac16, flac24, ogg, opus, mp3.")
        }
    }

    func testOpusAt44100SaysWhichRatesWork() {
        let path = directory.appendingPathComponent("x.opus").path
        let error = writerError(path, format: .oggOpus, sampleRate: 44100)
        XCTAssertEqual(error?.description,
                       "Ogg Opus cannot be written at 44100 Hz; it takes 8000, 12000, 16000, 24000 or 48000 Hz.")
        XCTAssertFalse(FileManager.default.fileExists(atPath: AudioFileWriter.partialPath(for: path)))
        XCTAssertNil(writerError(path, format: .oggOpus, sampleRate: 24000))
    }

    func testMP3At96000SaysWhichRatesWork() {
        let error = writerError(directory.appendingPathComponent("x.mp3").path, format: .mp3, sampleRate: 96000)
        XCTAssertEqual(error?.description, "MP3 cannot be written at 96000 Hz; it takes "
            + "8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100 or 48000 Hz.")
    }

    func testImpossibleRateForFLAC() {
        // libsndfile opens FLAC up to 655350 Hz and refuses 655351 (tried);
        // sf_format_check accepts both, so the limit must be checked first.
        let path = directory.appendingPathComponent("x.flac").path
        XCTAssertEqual(writerError(path, format: .flac16, sampleRate: 655_351)?.description,
                       "16-bit FLAC cannot be written at 655351 Hz; it takes rates up to 655350 Hz.")
        XCTAssertNil(writerError(path, format: .flac16, sampleRate: 655_350))
    }
}
