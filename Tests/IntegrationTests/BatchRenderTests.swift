import Foundation
import XCTest

/// `fxhost render` with an output template: one render per input file,
/// each equal to a single render of that file.
final class BatchRenderTests: XCTestCase {
    /// Real plugins with state that would leak if instances were shared:
    /// Overdrive, then Delay (its delay line) and Ambience (its reverb).
    static let patch = """
        fxhost: 1
        nodes:
          in:    { input: 2 }
          drive: { plugin: mda/Overdrive, params: { drive: 0.6 } }
          delay: { plugin: mda/Delay }
          room:  { plugin: mda/Ambience }
          out:   { output: 2 }
        chain: [in, drive, delay, room, out]
        """

    private func makeTakes(in folder: URL, names: [String]) throws {
        for (index, name) in names.enumerated() {
            let path = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Audio.noise(channels: 2, frames: 2400 + 1200 * index, amplitude: 0.4, seed: UInt64(index + 1)).write(path.path)
        }
    }

    func testABatchEqualsSingleRendersWithOneJobOrTwo() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.patch.write(toFile: path("fx.yaml"), atomically: true, encoding: .utf8)
        try makeTakes(in: folder, names: ["takes/a.wav", "takes/b.wav", "takes/c.wav"])
        for folderName in ["single", "jobs1", "jobs2"] {
            try FileManager.default.createDirectory(atPath: path(folderName), withIntermediateDirectories: true)
        }
        let options = ["--tail", "200ms", "--quiet"]
        for name in ["a", "b", "c"] {
            try Tools.fxhost(["render", path("fx.yaml"), "-i", path("takes/\(name).wav"),
                              "-o", path("single/\(name).wav")] + options)
        }
        try Tools.fxhost(["render", path("fx.yaml"), "-i", path("takes/*.wav"), "-o", path("jobs2/{name}.wav"),
                          "--jobs", "2"] + options)
        try Tools.fxhost(["render", path("fx.yaml"), "-i", path("takes/*.wav"), "-o", path("jobs1/{name}.wav"),
                          "--jobs", "1"] + options)
        for name in ["a", "b", "c"] {
            let single = try Audio.read(path("single/\(name).wav"))
            XCTAssertGreaterThan(single.frames, 2400, name)
            XCTAssertIdentical(try Audio.read(path("jobs2/\(name).wav")), single, "\(name), --jobs 2")
            XCTAssertIdentical(try Audio.read(path("jobs1/\(name).wav")), single, "\(name), --jobs 1")
        }
    }

    func testNameFolderAndNumberExpandInPathOrder() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try makeTakes(in: folder, names: ["b/take.wav", "a/z.wav", "a/y.flac.wav"])
        // Three -i values, one a pattern; {dir} is each input's folder as given.
        try Tools.fxhost(["render", "--chain", "eg-amp", "-i", path("b/take.wav"), "-i", path("a/*.wav"),
                          "-o", "{dir}/out-{n}-{name}.wav", "--tail", "0", "--quiet"])
        for expected in ["a/out-1-y.flac.wav", "a/out-2-z.wav", "b/out-3-take.wav"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: path(expected)), expected)
        }
        XCTAssertEqual(try Audio.read(path("a/out-1-y.flac.wav")).frames, 2400 + 1200 * 2, "y.flac.wav is the third take made")
    }

    func testAFailingFileIsReportedWhileTheOthersRender() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try makeTakes(in: folder, names: ["takes/a.wav", "takes/c.wav"])
        try "not audio".write(toFile: path("takes/b.wav"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        let result = try Tools.run(Tools.fxhost, ["render", "--chain", "eg-amp", "-i", path("takes/*.wav"),
                                                  "-o", path("out/{name}.wav"), "--tail", "0", "--json"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("1 of 3 files failed"), result.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        XCTAssertEqual(summary["rendered"] as? Int, 2)
        XCTAssertEqual(summary["failed"] as? Int, 1)
        let files = summary["files"] as! [[String: Any]]
        XCTAssertEqual(files.map { $0["input"] as? String }, ["a", "b", "c"].map { path("takes/\($0).wav") })
        XCTAssertTrue((files[1]["error"] as? String ?? "").contains("takes/b.wav"), "\(files[1])")
        XCTAssertNil(files[1]["render"])
        for index in [0, 2] {
            XCTAssertNil(files[index]["error"], "\(files[index])")
            XCTAssertEqual(files[index]["durationSeconds"] as? Double, Double(2400 + 1200 * index / 2) / 48000)
        }
        XCTAssertIdentical(try Audio.read(path("out/a.wav")), try Audio.read(path("takes/a.wav")), "eg-amp at 0 dB")
        XCTAssertTrue(FileManager.default.fileExists(atPath: path("out/c.wav")))
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out/b.wav")))
    }

    func testMistakesAreRefusedBeforeAnythingRenders() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try makeTakes(in: folder, names: ["takes/a.wav", "more/a.wav"])
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        let cases: [(arguments: [String], message: String)] = [
            (["-i", path("takes/*.flac"), "-o", path("out/{name}.wav")], "`-i '\(path("takes/*.flac"))'` matches no file"),
            (["-i", path("*/a.wav"), "-o", path("out/{name}.wav")],
             "sends both `\(path("more/a.wav"))` and `\(path("takes/a.wav"))` to `\(path("out/a.wav"))`"),
            (["-i", path("takes/*.wav"), "-o", "{dir}/{name}.wav"], "would write over `\(path("takes/a.wav"))`"),
            (["-i", path("takes/*.wav"), "-o", path("out/{nmae}-{n}.wav")], "holds `{nmae}`, which is no placeholder"),
            (["-i", path("takes/*.wav"), "-o", path("missing/{name}.wav")], "the folder `\(path("missing"))`"),
            (["-i", path("*/a.wav"), "-o", path("out/one.wav")], "matches 2 files; to render each on its own"),
            (["-i", path("takes/a.wav"), "-o", path("out/one.wav"), "--jobs", "2"], "--jobs renders several files at once"),
        ]
        for (arguments, message) in cases {
            let result = try Tools.run(Tools.fxhost, ["render", "--chain", "eg-amp"] + arguments)
            XCTAssertEqual(result.status, 1, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one sentence: \(result.stderr)")
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("out")), [], "nothing rendered")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: path("takes")), ["a.wav"], "no input overwritten")
    }
}
