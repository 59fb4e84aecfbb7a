import Foundation
@testable import HostCore
import TestSupport
import XCTest

/// A tap whose file a render or live run would refuse is refused when the
/// plan is compiled (format) or the patch is loaded (folder), at the tap's
/// line, so `fxhost check` refuses it too.
final class TapFileCheckTests: XCTestCase {
    let at = SourceLocation(file: "p.yaml", line: 9, column: 5)

    private func tappedGraph(channels: Int, file: String) throws -> AudioGraph {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: channels)
        let output = try graph.addOutput("out", channels: channels)
        try graph.connect(input, to: output)
        try graph.installTap(on: input, file: file, location: at)
        return graph
    }

    private func compileError(channels: Int = 2, file: String, sampleRate: Double = 48000) throws -> String {
        let graph = try tappedGraph(channels: channels, file: file)
        do {
            _ = try graph.compile(format: RenderFormat(sampleRate: sampleRate, maxBlockFrames: 64, mode: .offline))
            return "compiled"
        } catch {
            return "\(error)"
        }
    }

    func testAnExtensionNoFormatMatchesIsRefusedAtTheTap() throws {
        XCTAssertEqual(try compileError(file: "/takes/take.xyz"),
                       "p.yaml:9:5: the tap on `in`: cannot tell the audio format of `/takes/take.xyz` from its extension "
                       + "(end the file name in .wav, .rf64, .flac, .ogg, .oga, .opus, .mp3)")
    }

    /// The limits libsndfile gives these formats: Opus takes 48 kHz and
    /// its divisors, MP3 at most two channels.
    func testAFormatThatCannotHoldTheTapIsRefusedAtTheTap() throws {
        XCTAssertEqual(try compileError(file: "/takes/take.opus", sampleRate: 44100),
                       "p.yaml:9:5: the tap on `in` cannot record to `/takes/take.opus`: Ogg Opus cannot be written "
                       + "at 44100 Hz; it takes 8000, 12000, 16000, 24000 or 48000 Hz.")
        XCTAssertEqual(try compileError(channels: 3, file: "/takes/take.mp3"),
                       "p.yaml:9:5: the tap on `in` cannot record to `/takes/take.mp3`: MP3 cannot hold 3 channel(s) at 48000 Hz.")
        XCTAssertEqual(try compileError(file: "/takes/take.opus"), "compiled")
    }

    func testATapIntoAMissingOrUnwritableFolderIsRefusedWhenLoaded() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tap-folders-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func loadError(_ tapFile: String) -> String {
            do {
                let patch = try PatchParser.parse(text: """
                    fxhost: 1
                    nodes:
                      in: { input: 1 }
                      out: { output: 1 }
                    chain: [in, out]
                    taps:
                      - { at: in, file: \(tapFile) }
                    """, path: folder.appendingPathComponent("p.yaml").path)
                _ = try PatchLoader(units: NoUnits()).graph(for: patch)
                return "loaded"
            } catch {
                return "\(error)"
            }
        }
        let patchPath = folder.appendingPathComponent("p.yaml").path
        XCTAssertEqual(loadError("missing/take.wav"),
                       "\(patchPath):7:5: the tap on `in`: the folder of `\(folder.path)/missing/take.wav` does not exist "
                       + "(create `\(folder.path)/missing` first)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("take.wav"), withIntermediateDirectories: false)
        XCTAssertEqual(loadError("take.wav"),
                       "\(patchPath):7:5: the tap on `in`: `\(folder.path)/take.wav` is a directory, not a regular file; "
                       + "fxhost reads and writes only regular files")
        try FIFOs.make(folder.appendingPathComponent("fifo.wav").path)
        XCTAssertEqual(loadError("fifo.wav"),
                       "\(patchPath):7:5: the tap on `in`: `\(folder.path)/fifo.wav` is a FIFO, not a regular file; "
                       + "fxhost reads and writes only regular files")
        XCTAssertEqual(loadError("other.wav"), "loaded")
        if getuid() != 0 {  // root may write anywhere
            let locked = folder.appendingPathComponent("locked")
            try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: false,
                                                    attributes: [.posixPermissions: 0o555])
            XCTAssertEqual(loadError("locked/take.wav"),
                           "\(patchPath):7:5: the tap on `in`: the folder of `\(locked.path)/take.wav` cannot be written to")
            let readOnly = folder.appendingPathComponent("kept.wav")
            _ = FileManager.default.createFile(atPath: readOnly.path, contents: Data(), attributes: [.posixPermissions: 0o444])
            XCTAssertEqual(loadError("kept.wav"),
                           "\(patchPath):7:5: the tap on `in`: `\(readOnly.path)` exists and cannot be written to")
        }
    }
}

private struct NoUnits: UnitProvider {
    func makeUnit(_ reference: String) throws(UnitError) -> any ProcessingUnit {
        throw UnitError("no units in this test")
    }
}
