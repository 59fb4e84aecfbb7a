import Foundation
import XCTest

/// Bad input is one clear sentence on stderr and a non-zero exit, and a
/// failed render leaves no file behind.
final class CommandLineErrorTests: XCTestCase {
    func expectFailure(_ arguments: [String], saying expected: String,
                       file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try Tools.run(Tools.fxhost, arguments)
        XCTAssertNotEqual(result.status, 0, "should fail: \(arguments)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains(expected), "stderr was: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stderr.split(separator: "\n").count, 1, "one sentence: \(result.stderr)",
                       file: file, line: line)
        XCTAssertFalse(result.stderr.contains("Fatal error"), file: file, line: line)
    }

    /// Times from outside are bounded before anything converts them to
    /// frames: `--tail 1e308` (which trapped converting to Int) and a patch
    /// `start:` of 1e308 s are refused in one sentence, and `check` says so.
    func testHugeTimesAreRefusedNotCrashedOn() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.constant([0.5], frames: 4_800).write(path("in.wav"))
        // An option's mistake is told as ArgumentParser tells every one: the sentence, then the usage.
        for tail in ["1e308", "1e19"] {
            let result = try Tools.run(Tools.fxhost, ["render", "--chain", "mda/Overdrive", "-i", path("in.wav"),
                                                      "-o", path("out.wav"), "--tail", tail])
            XCTAssertNotEqual(result.status, 0)
            XCTAssertTrue(result.stderr.hasPrefix("Error: --tail is at most 3600 s, not 1e+"), result.stderr)
            XCTAssertFalse(result.stderr.contains("Fatal error"), result.stderr)
        }
        try """
        fxhost: 1
        nodes:
          src: { file: in.wav, start: 1e308s }
          out: { output: 1 }
        chain: [src, out]
        """.write(toFile: path("late.yaml"), atomically: true, encoding: .utf8)
        for command in ["check", "render"] {
            let arguments = command == "check" ? [command, path("late.yaml")] : [command, path("late.yaml"), "-o", path("out.wav")]
            try expectFailure(arguments, saying: "late.yaml:3:31: `start` must be at most 86400 s (24 hours)")
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.wav")))
    }

    func testMissingInputFile() throws {
        let folder = try Tools.temporaryFolder()
        try expectFailure(["render", "--chain", "mda/Overdrive", "-i", "/nonexistent/in.wav",
                           "-o", folder.appendingPathComponent("out.wav").path],
                          saying: "/nonexistent/in.wav")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [])
    }

    func testUnreadableInputFile() throws {
        let folder = try Tools.temporaryFolder()
        let text = folder.appendingPathComponent("notes.wav").path
        try "not audio".write(toFile: text, atomically: true, encoding: .utf8)
        try expectFailure(["render", "--chain", "mda/Overdrive", "-i", text, "-o", folder.appendingPathComponent("out.wav").path],
                          saying: "notes.wav")
    }

    func testUnwritableOutputLeavesNothing() throws {
        let folder = try Tools.temporaryFolder()
        try Audio.noise(channels: 2, frames: 100).write(folder.appendingPathComponent("in.wav").path)
        try expectFailure(["render", "--chain", "mda/Overdrive", "-i", folder.appendingPathComponent("in.wav").path,
                           "-o", "/nonexistent-folder/out.wav"],
                          saying: "/nonexistent-folder/out.wav")
    }

    func testUnsupportedFormat() throws {
        let folder = try Tools.temporaryFolder()
        try Audio.noise(channels: 2, frames: 100).write(folder.appendingPathComponent("in.wav").path)
        try expectFailure(["render", "--chain", "mda/Overdrive", "-i", folder.appendingPathComponent("in.wav").path,
                           "-o", folder.appendingPathComponent("out.xyz").path],
                          saying: ".xyz")
        var cd = Audio.noise(channels: 2, frames: 100)
        cd.sampleRate = 44100
        try cd.write(folder.appendingPathComponent("cd.wav").path)
        try expectFailure(["render", "--chain", "mda/Overdrive", "-i", folder.appendingPathComponent("cd.wav").path,
                           "-o", folder.appendingPathComponent("out.opus").path],
                          saying: "Opus")
    }

    func testUnknownPluginSuggestsTheRightOne() throws {
        try expectFailure(["check", "--chain", "mda/Overdirve"], saying: "mda/Overdrive")
        try expectFailure(["info", "x42-convolver"], saying: "did you mean one of `zeroconvolv#CfgMono`, ")
    }

    func testPatchErrorsNameFileLineAndColumn() throws {
        let folder = try Tools.temporaryFolder()
        let patch = folder.appendingPathComponent("bad.yaml").path
        try """
        fxhost: 1
        nodes:
          in: { input: 1 }
          drive:
            plugin: mda/Overdrive
            params: { drive: 1.5 }
          out: { output: 2 }
        chain: [in, drive, out]
        """.write(toFile: patch, atomically: true, encoding: .utf8)
        try expectFailure(["check", patch], saying: "bad.yaml:6:")
        try expectFailure(["check", patch], saying: "drive")
    }

    /// What render refuses, check refuses too, at the tap's line.
    func testCheckRefusesATapRenderWouldRefuse() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 100).write(path("in.wav"))
        for (file, saying) in [("take.xyz", "cannot tell the audio format of `\(path("take.xyz"))`"),
                               ("missing/take.wav", "the folder of `\(path("missing/take.wav"))` does not exist")] {
            try """
            fxhost: 1
            nodes:
              in: { input: 2 }
              drive: { plugin: mda/Overdrive }
              out: { output: 2 }
            chain: [in, drive, out]
            taps:
              - { at: drive, file: \(file) }
            """.write(toFile: path("tapped.yaml"), atomically: true, encoding: .utf8)
            try expectFailure(["check", path("tapped.yaml")], saying: "tapped.yaml:8:5: the tap on `drive`: " + saying)
            try expectFailure(["render", path("tapped.yaml"), "-i", path("in.wav"), "-o", path("out.wav")],
                              saying: "tapped.yaml:8:5: the tap on `drive`: " + saying)
        }
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["in.wav", "tapped.yaml"])
    }
}
