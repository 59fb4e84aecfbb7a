import Foundation
import HostCore
import TestSupport
import XCTest

/// fxhost opens only regular files. A file source, a patch file, a MIDI
/// file, an `ir:` (read by x42's convolver itself), an input or output
/// file, a live tap target or a saved patch that is a FIFO, a directory or
/// a loop of symbolic links is refused with one sentence that names it,
/// and promptly: opening a FIFO waits for its other end, so before this
/// `check` and `render` hung on one, and a live run froze (the console,
/// OSC, Ctrl-C) or could not `quit`. Oracles: the sentences, and that the
/// process ends within 30 s (it is killed, and the test fails, if not).
final class RegularFileRefusalTests: XCTestCase {
    private static let convolver = "http://gareus.org/oss/lv2/zeroconvolv#CfgMono"
    private static let only = "not a regular file; fxhost reads and writes only regular files"

    private var folder: URL!

    override func setUpWithError() throws {
        folder = try Tools.temporaryFolder(name)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    /// Runs fxhost to its end, or kills it after `seconds` and fails.
    private func fxhost(_ arguments: [String], seconds: Double = 30,
                        file: StaticString = #filePath, line: UInt = #line) throws -> (status: Int32?, stderr: String) {
        let run = try LiveRun(arguments)
        guard let status = run.waitForExit(seconds: seconds) else {
            run.kill(SIGKILL)
            _ = run.waitForExit(seconds: 10)
            XCTFail("fxhost \(arguments.joined(separator: " ")) still ran after \(seconds) s", file: file, line: line)
            return (nil, run.stderr)
        }
        return (status, run.stderr)
    }

    /// `check PATCH` and `render PATCH -o out.wav` both refuse, exit 1,
    /// and print `sentence` (all of stderr but its prefix and newline).
    private func assertRefused(_ patch: String, saying sentence: String,
                               file: StaticString = #filePath, line: UInt = #line) throws {
        for arguments in [["check", patch], ["render", patch, "-o", path("out.wav")]] {
            let result = try fxhost(arguments, file: file, line: line)
            XCTAssertEqual(result.status, 1, arguments.joined(separator: " "), file: file, line: line)
            XCTAssertEqual(result.stderr, "fxhost: error: \(sentence)\n", arguments.joined(separator: " "),
                           file: file, line: line)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.wav")), file: file, line: line)
    }

    private func writePatch(_ name: String, source: String) throws {
        try """
        fxhost: 1
        nodes:
          src: \(source)
          out: { output: 1 }
        chain: [src, out]
        """.write(toFile: path(name), atomically: true, encoding: .utf8)
    }

    func testAFileSourceThatIsAFIFOIsRefused() throws {
        try FIFOs.make(path("fifo.wav"))
        try writePatch("p.yaml", source: "{ file: fifo.wav }")
        try assertRefused(path("p.yaml"),
                          saying: "\(path("p.yaml")):3:16: node `src`: `\(path("fifo.wav"))` is a FIFO, \(Self.only).")
    }

    func testAFileSourceThatIsADirectoryIsRefused() throws {
        try FileManager.default.createDirectory(atPath: path("stems.wav"), withIntermediateDirectories: false)
        try writePatch("p.yaml", source: "{ file: stems.wav }")
        try assertRefused(path("p.yaml"),
                          saying: "\(path("p.yaml")):3:16: node `src`: `\(path("stems.wav"))` is a directory, \(Self.only).")
    }

    func testAFileSourceThatIsASymbolicLinkLoopIsCalledALoop() throws {
        try FileManager.default.createSymbolicLink(atPath: path("x.wav"), withDestinationPath: path("y.wav"))
        try FileManager.default.createSymbolicLink(atPath: path("y.wav"), withDestinationPath: path("x.wav"))
        try writePatch("p.yaml", source: "{ file: x.wav }")
        try assertRefused(path("p.yaml"),
                          saying: "\(path("p.yaml")):3:16: node `src`: `\(path("x.wav"))` is a loop of symbolic links.")
    }

    func testAMIDIFileThatIsAFIFOIsRefused() throws {
        try FIFOs.make(path("notes.mid"))
        try """
        fxhost: 1
        nodes:
          keys: { midi-file: notes.mid }
          synth: { plugin: "http://lv2plug.in/plugins/eg-sampler" }
          out: { output: 1 }
        chain: [keys, synth, out]
        """.write(toFile: path("p.yaml"), atomically: true, encoding: .utf8)
        let result = try fxhost(["check", path("p.yaml")])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.stderr, "fxhost: error: \(path("p.yaml")):3:22: node `keys`: \(path("notes.mid")): is a FIFO, \(Self.only)\n")
    }

    func testAPatchFileThatIsAFIFOIsRefused() throws {
        try FIFOs.make(path("fifo.yaml"))
        try assertRefused(path("fifo.yaml"), saying: "patch file `\(path("fifo.yaml"))` is a FIFO, \(Self.only)")
    }

    func testAPatchFileThatIsASymbolicLinkLoopIsCalledALoop() throws {
        try FileManager.default.createSymbolicLink(atPath: path("loop.yaml"), withDestinationPath: path("loop.yaml"))
        try assertRefused(path("loop.yaml"), saying: "patch file `\(path("loop.yaml"))` is a loop of symbolic links")
    }

    func testAnImpulseResponseThatIsAFIFOIsRefused() throws {
        try FIFOs.make(path("ir.wav"))
        try """
        fxhost: 1
        nodes:
          src: { input: 1 }
          cab:
            plugin: "\(Self.convolver)"
            params: { ir: ir.wav }
          out: { output: 1 }
        chain: [src, cab, out]
        """.write(toFile: path("cab.yaml"), atomically: true, encoding: .utf8)
        let sentence = "\(path("cab.yaml")):6:15: node `cab`: `ir` takes a file, and `\(path("ir.wav"))` is a FIFO, \(Self.only)"
        let check = try fxhost(["check", path("cab.yaml")])
        XCTAssertEqual(check.status, 1)
        XCTAssertEqual(check.stderr, "fxhost: error: \(sentence)\n")
        try Audio.constant([0.5], frames: 4800).write(path("in.wav"))
        let render = try fxhost(["render", path("cab.yaml"), "-i", path("in.wav"), "-o", path("out.wav")])
        XCTAssertEqual(render.status, 1)
        XCTAssertEqual(render.stderr, "fxhost: error: \(sentence)\n")
    }

    func testAnInputOrOutputFileThatIsAFIFOIsRefused() throws {
        try FIFOs.make(path("fifo.wav"))
        try Audio.constant([0.5], frames: 4800).write(path("in.wav"))
        let chain = "http://lv2plug.in/plugins/eg-amp gain=0"
        let input = try fxhost(["render", "--chain", chain, "-i", path("fifo.wav"), "-o", path("out.wav")])
        XCTAssertEqual(input.status, 1)
        XCTAssertTrue(input.stderr.contains("`\(path("fifo.wav"))` is a FIFO, \(Self.only)"), input.stderr)
        let output = try fxhost(["render", "--chain", chain, "-i", path("in.wav"), "-o", path("fifo.wav")])
        XCTAssertEqual(output.status, 1)
        XCTAssertTrue(output.stderr.contains("`\(path("fifo.wav"))` is a FIFO, \(Self.only)"), output.stderr)
        var info = stat()
        XCTAssertEqual(lstat(path("fifo.wav"), &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is as it was")
    }

    /// Live: `tap amp fifo.wav` and `set cab ir fifo.wav` are refused with
    /// a sentence each, the run plays on, and `quit` ends it with 0.
    func testALiveTapOrImpulseResponseThatIsAFIFOIsRefusedAndQuitStillQuits() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        try MessageParameterRenderTests.writeImpulse(path("unity.wav"), at: 0, value: 1)
        try Audio.constant([0.5], frames: 48_000 * 30).write(path("dc.wav"))
        try FIFOs.make(path("fifo.wav"))
        try FIFOs.make(path("fifo.yaml"))
        try """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
          cab: { plugin: "\(Self.convolver)", params: { ir: unity.wav } }
          main: { output: 1 }
        chain: [dc, amp, cab, main]
        taps:
          - { at: cab, file: take.wav }
        """.write(toFile: path("live.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("live.yaml"), "--server", server.name, "--quiet"], console: true)
        defer {
            if run.waitForExit(seconds: 0) == nil {
                run.kill(SIGKILL)
                _ = run.waitForExit(seconds: 10)
            }
        }
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.5))
        let fifo = "`\(path("fifo.wav"))` is a FIFO, \(Self.only)"
        run.type("tap amp \(path("fifo.wav"))")
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains(fifo) }, "tap: \(run.stderr)")
        run.type("set cab ir \(path("fifo.wav"))")
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains("`ir` takes a file, and \(fifo)") }, "ir: \(run.stderr)")
        run.type("save \(path("fifo.yaml"))")
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains("cannot save the patch: `\(path("fifo.yaml"))` is a FIFO") },
                      "save: \(run.stderr)")
        let before = LiveRun.frames(path("take.wav"))
        XCTAssertTrue(eventually(within: 30) { LiveRun.frames(path("take.wav")) > before + 4800 }, "it plays on")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 30), 0, run.stderr)
        var info = stat()
        XCTAssertEqual(lstat(path("fifo.wav"), &info), 0)
        XCTAssertEqual(info.st_mode & S_IFMT, S_IFIFO, "the FIFO is as it was")
    }
}
