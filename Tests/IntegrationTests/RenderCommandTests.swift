import Foundation
import XCTest

/// `fxhost render` on projects whose right answer is arithmetic.
final class RenderCommandTests: XCTestCase {
    func testStemsWithOffsetsGainsAndASendMixByArithmetic() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let frames = 4800
        let drums = Audio.noise(channels: 2, frames: frames, amplitude: 0.3, seed: 3)
        let vox = Audio.noise(channels: 1, frames: frames, amplitude: 0.3, seed: 4)
        try drums.write(path("drums.wav"))
        try vox.write(path("vox.wav"))
        try """
        fxhost: 1
        nodes:
          drums: { file: drums.wav, gain: -3dB }
          vox:   { file: vox.wav, start: 50ms }
          send:  { gain: -12dB }
          bus:   { mix: 2 }
          out:   { output: 2 }
        connect:
          - drums -> bus
          - vox -> bus
          - { from: vox, to: send, gain: -6dB }
          - send -> bus
          - bus -> out
        taps:
          - { at: send, file: send.wav }
        """.write(toFile: path("project.yaml"), atomically: true, encoding: .utf8)

        try Tools.fxhost(["render", path("project.yaml"), "-o", path("mix.wav"), "--tail", "0", "--quiet"])
        let mix = try Audio.read(path("mix.wav"))
        let offset = 2400  // 50 ms at 48 kHz
        XCTAssertEqual(mix.frames, offset + frames, "length = longest source plus its start offset")
        let drumsGain = Float(pow(10, -3.0 / 20)), sendGain = Float(pow(10, -18.0 / 20))
        for channel in 0..<2 {
            for frame in 0..<mix.frames {
                let drum = frame < frames ? drums.channels[channel][frame] * drumsGain : 0
                let voice = frame >= offset ? vox.channels[0][frame - offset] : 0
                let expected = drum + voice + voice * sendGain
                XCTAssertEqual(mix.channels[channel][frame], expected, accuracy: 2e-6,
                               "channel \(channel + 1) frame \(frame)")
                if abs(mix.channels[channel][frame] - expected) > 2e-6 { return }
            }
        }
        // The tap records the send node's output: the voice at -18 dB, mono.
        let send = try Audio.read(path("send.wav"))
        XCTAssertEqual(send.channels.count, 1)
        for frame in offset..<(offset + frames) {
            XCTAssertEqual(send.channels[0][frame], vox.channels[0][frame - offset] * sendGain, accuracy: 1e-6)
        }
    }

    func testAStemStartingManyBlocksLateIsSilentUntilItsStart() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let stem = Audio.constant([0.25], frames: 1000)
        try stem.write(path("late.wav"))
        try Audio.constant([0.5, 0.5], frames: 200).write(path("early.wav"))
        try """
        fxhost: 1
        nodes:
          early: { file: early.wav }
          late:  { file: late.wav, start: 2s }
          bus:   { mix: 2 }
          out:   { output: 2 }
        connect: [early -> bus, late -> bus, bus -> out]
        """.write(toFile: path("late.yaml"), atomically: true, encoding: .utf8)
        try Tools.fxhost(["render", path("late.yaml"), "-o", path("mix.wav"), "--tail", "0", "--block", "64", "--quiet"])
        let mix = try Audio.read(path("mix.wav"))
        XCTAssertEqual(mix.frames, 96000 + 1000)
        for channel in 0..<2 {
            XCTAssertEqual(Array(mix.channels[channel][0..<200]), [Float](repeating: 0.5, count: 200))
            XCTAssertEqual(Array(mix.channels[channel][200..<96000]), [Float](repeating: 0, count: 95800))
            XCTAssertEqual(Array(mix.channels[channel][96000...]), [Float](repeating: 0.25, count: 1000))
        }
    }

    func testATapOnlyPatchKeepsItsTailUntilTheTapFallsSilent() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 4800).write(path("in.wav"))
        try """
        fxhost: 1
        nodes:
          src: { file: in.wav }
          echo: { plugin: mda/Delay, params: { l_delay: 0.5, r_delay: 0.5, feedback: 0.9, fx_mix: 0.5 } }
        chain: [src, echo]
        taps:
          - { at: echo, file: echo.wav }
        """.write(toFile: path("taponly.yaml"), atomically: true, encoding: .utf8)
        try Tools.fxhost(["render", path("taponly.yaml"), "--tail", "30s", "--quiet"])
        let tap = try Audio.read(path("echo.wav"))
        let threshold = Float(pow(10, -90.0 / 20))
        let lastLoud = (0..<tap.frames).last { frame in tap.channels.contains { abs($0[frame]) >= threshold } }!
        XCTAssertGreaterThan(lastLoud, 4800 + 24000, "the echoes ring on past half a second after the source")
        XCTAssertGreaterThanOrEqual(tap.frames, lastLoud + 24000, "the tail ran until the tap was quiet for 0.5 s")
        XCTAssertLessThan(tap.frames, 30 * 48000, "and ended by itself")
    }

    func testTwoWritersOfOneFileAreRefusedAndLeaveNothing() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 4800).write(path("in.wav"))
        try """
        fxhost: 1
        nodes:
          in: { input: 2 }
          drive: { plugin: mda/Overdrive }
          out: { output: 2 }
        chain: [in, drive, out]
        taps:
          - { at: drive, file: same.wav }
        """.write(toFile: path("dup.yaml"), atomically: true, encoding: .utf8)
        let result = try Tools.run(Tools.fxhost, ["render", path("dup.yaml"), "-i", path("in.wav"), "-o", path("same.wav")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("output `out` and the tap on `drive` would both write"), result.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(), ["dup.yaml", "in.wav"])
    }

    func testAnOutputOverItsOwnInputIsRefusedAndTheInputKept() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let input = Audio.noise(channels: 2, frames: 4800)
        try input.write(path("in.wav"))
        let result = try Tools.run(Tools.fxhost, ["render", "--chain", "mda/Overdrive", "-i", path("in.wav"), "-o", path("in.wav")])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("output `out` would overwrite `\(path("in.wav"))`, which the file for input `in` plays"),
                      result.stderr)
        XCTAssertEqual(try Audio.read(path("in.wav")), input)
    }

    func testInterruptingARenderRemovesItsPartialFiles() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        // Long enough that the render is still running when the signal comes.
        try Audio.noise(channels: 2, frames: 48000 * 240, amplitude: 0.3).write(path("long.wav"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.fxhost)
        process.arguments = ["render", "--chain", "mda/Overdrive ! mda/Ambience ! mda/Delay", "-i", path("long.wav"),
                             "-o", path("out.flac"), "--quiet"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        // The partial file is created before the render installs its signal
        // handler; a megabyte in it means blocks are being rendered, so the
        // handler is in place.
        let partial = path(".out.flac.partial")
        func partialBytes() -> Int {
            ((try? FileManager.default.attributesOfItem(atPath: partial))?[.size] as? Int) ?? 0
        }
        let deadline = Date().addingTimeInterval(60)
        while partialBytes() < 1 << 20 && Date() < deadline { usleep(10_000) }
        XCTAssertGreaterThanOrEqual(partialBytes(), 1 << 20, "the render started writing")
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 1, message)
        XCTAssertTrue(message.contains("interrupted by SIGINT"), message)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), ["long.wav"])
    }

    func testTapEqualsTheOutputItFeeds() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 24000).write(path("in.wav"))
        try """
        fxhost: 1
        nodes:
          in: { input: 2 }
          drive: { plugin: mda/Overdrive, params: { drive: 0.5 } }
          out: { output: 2 }
        chain: [in, drive, out]
        taps:
          - { at: drive, file: drive-tap.wav }
        """.write(toFile: path("tapped.yaml"), atomically: true, encoding: .utf8)
        try Tools.fxhost(["render", path("tapped.yaml"), "-i", path("in.wav"), "-o", path("out.wav"), "--tail", "0", "--quiet"])
        XCTAssertIdentical(try Audio.read(path("drive-tap.wav")), try Audio.read(path("out.wav")))
    }

    func testTailRunsUntilTheDelayDiesAwayAndZeroTailStopsWithTheInput() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 4800).write(path("in.wav"))
        let chain = "mda/Delay l_delay=0.1 r_delay=0.1 feedback=0.5 fx_mix=0.5"
        try Tools.fxhost(["render", "--chain", chain, "-i", path("in.wav"), "-o", path("none.wav"), "--tail", "0", "--quiet"])
        XCTAssertEqual(try Audio.read(path("none.wav")).frames, 4800)

        try Tools.fxhost(["render", "--chain", chain, "-i", path("in.wav"), "-o", path("tail.wav"), "--tail", "20s", "--quiet"])
        let tail = try Audio.read(path("tail.wav"))
        XCTAssertGreaterThan(tail.frames, 4800 + 24000, "the echoes and half a second of silence are kept")
        XCTAssertLessThan(tail.frames, 20 * 48000, "the tail ended by itself before --tail")
        let lastHalfSecond = tail.channels.flatMap { $0.suffix(24000) }.map(abs).max()!
        XCTAssertLessThan(lastHalfSecond, Float(pow(10, -90.0 / 20)))

        try Tools.fxhost(["render", "--chain", chain, "-i", path("in.wav"), "-o", path("short.wav"), "--tail", "100ms", "--quiet"])
        XCTAssertEqual(try Audio.read(path("short.wav")).frames, 4800 + 4800, "--tail bounds the tail")
    }

    func testJSONSummaryReportsPeaks() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.constant([0.5, -0.25], frames: 4800).write(path("in.wav"))
        let result = try Tools.fxhost(["render", "--chain", "eg-amp gain=0", "-i", path("in.wav"), "-o", path("out.wav"),
                                       "--tail", "0", "--json"])
        let summary = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as! [String: Any]
        let outputs = summary["outputs"] as! [[String: Any]]
        let peaks = outputs[0]["peaks"] as! [Double]
        XCTAssertEqual(peaks[0], 0.5, accuracy: 1e-6)
        XCTAssertEqual(peaks[1], 0.25, accuracy: 1e-6)
        XCTAssertEqual(summary["frames"] as? Int, 4800)
    }

    func testEveryFormatIsWrittenFromTheExtension() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 48000, amplitude: 0.2).write(path("in.wav"))
        for name in ["out.wav", "out.flac", "out.ogg", "out.opus", "out.mp3", "out.rf64"] {
            try Tools.fxhost(["render", "--chain", "mda/Overdrive", "-i", path("in.wav"), "-o", path(name),
                              "--tail", "0", "--quiet"])
            let decoded = try Audio.read(path(name))
            XCTAssertEqual(decoded.channels.count, 2, name)
            XCTAssertGreaterThan(decoded.frames, 40000, name)
        }
    }
}
