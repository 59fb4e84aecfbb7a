import Foundation
import HostCore
import TestSupport
import XCTest

/// `set NODE PROP VALUE` from `fxhost run`'s console on a message
/// parameter: x42's convolver on a constant 0.5 gives 0.5 × the sum of its
/// impulse response (1, then 0.5 after `set cab ir`), the console echoes
/// the path sent and `status --json` shows it under `properties`.
final class MessageParameterRunTests: XCTestCase {
    func testSetChangesTheImpulseResponseWhilePlayingAndStatusShowsIt() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try MessageParameterRenderTests.writeImpulse(path("unity.wav"), at: 0, value: 1)
        try MessageParameterRenderTests.writeImpulse(path("half.wav"), at: 0, value: 0.5)
        let run = try Self.startConvolverRun(in: folder, ir: "unity.wav", server: server.name)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.5))
        XCTAssertTrue(eventually(within: 60) { Self.lastSample(path("take.wav")) == 0.5 }, "unity: 0.5")
        run.type("set cab ir \(path("half.wav"))")
        XCTAssertTrue(eventually(within: 60) { Self.lastSample(path("take.wav")) == 0.25 }, "half: 0.25")
        run.type("status --json")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("\"properties\"") })
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("cab:ir = \(path("half.wav"))\n"), run.stdout)
        let json = try XCTUnwrap(run.stdout.range(of: "{").map { String(run.stdout[$0.lowerBound...]) })
        let status = try JSONSerialization.jsonObject(with: Data(Self.firstObject(json).utf8)) as? [String: Any]
        let properties = status?["properties"] as? [String: [String: String]]
        XCTAssertEqual(properties?["cab"]?["ir"], path("half.wav"), json)
    }

    /// A file the convolver cannot load (a text file named .wav) is refused
    /// as the reply to the `set` that sent it, in the plugin's own words;
    /// the old impulse response plays on (still 0.5 × 1), and `status`
    /// and `save` keep the old path.
    func testAnImpulseResponseThePluginCannotLoadIsRefusedAndTheOldOnePlaysOn() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try MessageParameterRenderTests.writeImpulse(path("unity.wav"), at: 0, value: 1)
        try "not a sound file\n".write(toFile: path("text.wav"), atomically: true, encoding: .utf8)
        let run = try Self.startConvolverRun(in: folder, ir: "unity.wav", server: server.name)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.5))
        XCTAssertTrue(eventually(within: 60) { Self.lastSample(path("take.wav")) == 0.5 }, "unity: 0.5")
        run.type("set cab ir \(path("text.wav"))")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("could not apply `ir`") }, run.stderr)
        XCTAssertTrue(run.stderr.contains("configuration failed"), run.stderr)
        run.type("status --json")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("\"properties\"") })
        let seconds = (try Audio.read(path("take.wav"))).channels[0].count
        XCTAssertTrue(eventually(within: 60) { ((try? Audio.read(path("take.wav")))?.channels[0].count ?? 0) > seconds + 4800 })
        XCTAssertEqual(Self.lastSample(path("take.wav")), 0.5, "the old impulse response plays on")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertFalse(run.stdout.contains("cab:ir = \(path("text.wav"))"), run.stdout)
        let json = try XCTUnwrap(run.stdout.range(of: "{").map { String(run.stdout[$0.lowerBound...]) })
        let status = try JSONSerialization.jsonObject(with: Data(Self.firstObject(json).utf8)) as? [String: Any]
        let properties = status?["properties"] as? [String: [String: String]]
        XCTAssertEqual(properties?["cab"]?["ir"], path("unity.wav"), json)
    }

    /// `fxhost run` of x42's convolver on a constant 0.5 (`dc.wav`, 30 s),
    /// `ir` as the patch writes it, tapped at `cab` to `take.wav` unless
    /// `tap` is false, with the console on stdin.
    static func startConvolverRun(in folder: URL, ir: String, server: String, tap: Bool = true,
                                  options: [String] = ["--quiet"]) throws -> LiveRun {
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.constant([0.5], frames: 48_000 * 30).write(path("dc.wav"))
        try """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          cab: { plugin: "http://gareus.org/oss/lv2/zeroconvolv#CfgMono", params: { ir: \(ir) } }
          main: { output: 1 }
        chain: [dc, cab, main]
        """.appending(tap ? "\ntaps:\n  - { at: cab, file: take.wav }\n" : "\n")
            .write(toFile: path("cab.yaml"), atomically: true, encoding: .utf8)
        return try LiveRun(["run", path("cab.yaml"), "--server", server] + options, console: true)
    }

    /// The last frame a recording-mode tap holds so far.
    private static func lastSample(_ path: String) -> Float? {
        (try? Audio.read(path))?.channels.first?.last
    }

    /// The first complete JSON object in `text` (braces counted; no braces inside strings here).
    private static func firstObject(_ text: String) -> String {
        var depth = 0
        for (offset, character) in text.enumerated() {
            if character == "{" { depth += 1 }
            if character == "}" { depth -= 1; if depth == 0 { return String(text.prefix(offset + 1)) } }
        }
        return text
    }
}
