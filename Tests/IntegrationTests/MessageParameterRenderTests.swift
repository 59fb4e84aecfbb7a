import Foundation
import TestSupport
import XCTest

/// Message parameters set from a patch and from `--chain`, rendered
/// offline. Oracle: x42's IR convolver with an impulse response that is a
/// single 0.5 at frame 480 must give its input ×0.5, exactly 480 frames
/// late, once its own latency is compensated (arithmetic on the input).
final class MessageParameterRenderTests: XCTestCase {
    static let convolver = "http://gareus.org/oss/lv2/zeroconvolv#CfgMono"

    /// A mono impulse response: `value` at `frame`, zeros around it.
    static func writeImpulse(_ path: String, at frame: Int, value: Float, frames: Int = 1024) throws {
        var impulse = [Float](repeating: 0, count: frames)
        impulse[frame] = value
        try Audio(channels: [impulse]).write(path)
    }

    /// A patch at `path`: `in.wav` beside it through the mono convolver,
    /// with `ir` as written, to one output.
    static func writeConvolverPatch(_ path: String, ir: String) throws {
        try """
        fxhost: 1
        nodes:
          src: { file: in.wav }
          cab:
            plugin: "\(convolver)"
            params: { ir: \(ir) }
          out: { output: 1 }
        chain: [src, cab, out]
        """.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Every frame of `output` is `gain` × the input `delay` frames earlier.
    static func assertDelayedCopy(_ output: [Float], of input: [Float], delay: Int, gain: Float,
                                  file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertGreaterThanOrEqual(output.count, input.count, file: file, line: line)
        var worst: (frame: Int, error: Float) = (0, 0)
        for frame in 0..<output.count {
            let source = frame - delay
            let expected = source >= 0 && source < input.count ? gain * input[source] : 0
            let error = abs(output[frame] - expected)
            if error > worst.error { worst = (frame, error) }
        }
        XCTAssertLessThan(worst.error, 1e-5, "worst at frame \(worst.frame)", file: file, line: line)
    }

    func testTheConvolverFromAPatchDelaysByTheImpulsesFrameAndScalesByItsValue() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try FileManager.default.createDirectory(atPath: path("irs"), withIntermediateDirectories: true)
        try Self.writeImpulse(path("irs/cab.wav"), at: 480, value: 0.5)
        let input = Audio.noise(channels: 1, frames: 24_000, amplitude: 0.5, seed: 3)
        try input.write(path("in.wav"))
        // The path is relative to the patch's folder, not the working directory.
        try Self.writeConvolverPatch(path("cab.yaml"), ir: "irs/cab.wav")
        try Tools.fxhost(["render", path("cab.yaml"), "-o", path("out.wav"), "--tail", "0", "--quiet"])
        let output = try Audio.read(path("out.wav")).channels[0]
        Self.assertDelayedCopy(output, of: input.channels[0], delay: 480, gain: 0.5)
    }

    func testTheConvolverFromAChainTakesItsFileByTheFullURIToo() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeImpulse(path("ir.wav"), at: 100, value: 0.25)
        let input = Audio.noise(channels: 1, frames: 12_000, amplitude: 0.5, seed: 4)
        try input.write(path("in.wav"))
        for name in ["ir", "http://gareus.org/oss/lv2/zeroconvolv#ir"] {
            try Tools.fxhost(["render", "--chain", "\(Self.convolver) \(name)=\(path("ir.wav"))",
                              "-i", path("in.wav"), "-o", path("out.wav"), "--tail", "0", "--quiet"])
            let output = try Audio.read(path("out.wav")).channels[0]
            Self.assertDelayedCopy(output, of: input.channels[0], delay: 100, gain: 0.25)
        }
    }

    /// eg-sampler given its sample by `params:` plays that file, not its
    /// default click, at a note from a MIDI file (written by PyPI's mido):
    /// the file's samples from the note's frame (0.25 s: 12000), silence
    /// elsewhere (it stops one frame before the file's end, its own loop).
    func testTheSamplerPlaysTheFileItIsGivenAtANote() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let written = try Tools.run("python3", ["-c", """
            import sys, mido
            track = mido.MidiTrack([mido.MetaMessage("set_tempo", tempo=500000, time=0),
                                    mido.Message("note_on", note=60, velocity=100, time=240),
                                    mido.Message("note_off", note=60, velocity=0, time=480)])
            midi = mido.MidiFile(type=0, ticks_per_beat=480)
            midi.tracks.append(track)
            midi.save(sys.argv[1])
            """, path("notes.mid")])
        XCTAssertEqual(written.status, 0, "mido (scripts/install-deps.sh) must be installed: \(written.stderr)")
        let ramp = (0..<2000).map { Float($0 + 1) / 4000 }
        try FileManager.default.createDirectory(atPath: path("samples"), withIntermediateDirectories: true)
        try Audio(channels: [ramp]).write(path("samples/ramp.wav"))
        try """
        fxhost: 1
        nodes:
          keys: { midi-file: notes.mid }
          sampler: { plugin: "http://lv2plug.in/plugins/eg-sampler", params: { sample: samples/ramp.wav } }
          out: { output: 1 }
        chain: [keys, sampler, out]
        """.write(toFile: path("sampler.yaml"), atomically: true, encoding: .utf8)
        try Tools.fxhost(["render", path("sampler.yaml"), "-o", path("out.wav"), "--block", "256", "--tail", "0s"])
        let output = try Audio.read(path("out.wav")).channels[0]
        var expected = [Float](repeating: 0, count: output.count)
        for frame in 0..<(ramp.count - 1) where 12_000 + frame < output.count { expected[12_000 + frame] = ramp[frame] }
        let differing = (0..<output.count).first { output[$0] != expected[$0] }
        XCTAssertNil(differing, "first difference at frame \(differing ?? 0): \(differing.map { output[$0] } ?? 0)")
        XCTAssertGreaterThan(output.count, 14_000)
    }

    func testAMissingFileIsRefusedAtItsPlaceInThePatch() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try """
        fxhost: 1
        nodes:
          src: { input: 1 }
          cab:
            plugin: "\(Self.convolver)"
            params: { ir: nowhere.wav }
          out: { output: 1 }
        chain: [src, cab, out]
        """.write(toFile: path("cab.yaml"), atomically: true, encoding: .utf8)
        let result = try Tools.run(Tools.fxhost, ["check", path("cab.yaml")])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stderr, "fxhost: error: \(path("cab.yaml")):6:15: node `cab`: `ir` takes a file path, and \(path("nowhere.wav")) does not exist\n")
    }

    /// `check` and `render` fail, naming the node's line, when the convolver
    /// reports it could not load its impulse response (a text file named
    /// .wav), where they used to say OK and render silence.
    func testAnImpulseResponseThePluginCannotLoadFailsCheckAndRender() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try "not a sound file\n".write(toFile: path("text.wav"), atomically: true, encoding: .utf8)
        try Audio.noise(channels: 1, frames: 4800, amplitude: 0.5, seed: 5).write(path("in.wav"))
        try Self.writeConvolverPatch(path("cab.yaml"), ir: "text.wav")
        for arguments in [["check", path("cab.yaml")], ["render", path("cab.yaml"), "-o", path("out.wav"), "--quiet"]] {
            let result = try Tools.run(Tools.fxhost, arguments)
            XCTAssertNotEqual(result.status, 0, arguments[0])
            XCTAssertTrue(result.stderr.contains("cab.yaml:4:3:"), result.stderr)
            XCTAssertTrue(result.stderr.contains("could not apply `ir` = \(path("text.wav"))"), result.stderr)
            XCTAssertTrue(result.stderr.contains("configuration failed"), result.stderr)
        }
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("out.wav")))
    }
}
