import Foundation
import HostCore
import JackIO
import XCTest

/// `bounce FILE` typed into `fxhost run` on a private dummy server (48 kHz,
/// 256 frames). Oracles: `fxhost render --block 256` of the same patch (bit
/// for bit), the same render aligned with the live tap (live plugin state
/// survives the bounce), arithmetic for a range through eg-amp, and a second
/// client that counts the server's cycles and freewheel switches.
final class LiveBounceTests: XCTestCase {
    static let rate = 48_000, buffer = 256
    let nominalCycleRate = Double(rate) / Double(buffer)

    private var server: JackServerProcess!
    private var folder: URL!

    override func setUpWithError() throws {
        server = try startJackServer(sampleRate: Self.rate, bufferFrames: Self.buffer)
        folder = try Tools.temporaryFolder(name)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    private func tapFrames(_ file: String) -> Int {
        (try? AudioFileReader(path: file)).flatMap(\.frames) ?? 0
    }

    /// Bounces a stereo noise file through Overdrive and Ambience (a long
    /// reverb tail: state the live instances must keep) while it plays live.
    func testABounceWhileLiveEqualsTheRenderAndLivePlayingResumesWithItsState() throws {
        try Audio.noise(channels: 2, frames: 48_000 * 4, amplitude: 0.4, seed: 5).write(path("noise.wav"))
        try """
        fxhost: 1
        nodes:
          src:   { file: noise.wav, start: 100ms }
          drive: { plugin: http://drobilla.net/plugins/mda/Overdrive, params: { drive: 0.6, muffle: 0.2 } }
          room:  { plugin: http://drobilla.net/plugins/mda/Ambience, params: { mix: 0.4 } }
          main:  { output: 2 }
        chain: [src, drive, room, main]
        """.write(toFile: path("song.yaml"), atomically: true, encoding: .utf8)
        try Tools.fxhost(["render", path("song.yaml"), "-o", path("render.wav"), "--block", "\(Self.buffer)", "--quiet"])

        let observer = try ServerObserver(server: server.name)
        let run = try LiveRun(["run", path("song.yaml"), "--server", server.name, "--quiet",
                               "--tap", "main=\(path("live.wav"))"], console: true)
        XCTAssertTrue(run.waitForTap(path("live.wav"), seconds: 1))
        run.type("bounce \(path("bounce.wav"))")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("playing live again") }, run.stdout + run.stderr)
        let framesAfterBounce = tapFrames(path("live.wav"))
        XCTAssertTrue(eventually(within: 60) { self.tapFrames(self.path("live.wav")) >= framesAfterBounce + 48_000 },
                      "the live tap grows again after the bounce")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        // (a) The bounce is the render at the server's block size, bit for bit.
        let render = try Audio.read(path("render.wav"))
        let bounce = try Audio.read(path("bounce.wav"))
        XCTAssertGreaterThan(render.peak, 0.1)
        XCTAssertIdentical(bounce, render, "bounce from live vs fxhost render --block 256")

        // (b) Live playing resumed where it was, with the plugins' state: the
        // live tap, aligned, is the render sample for sample across the bounce.
        let live = try Audio.read(path("live.wav"))
        XCTAssertGreaterThan(live.frames, framesAfterBounce + 48_000)
        let after = live.channels[0][framesAfterBounce...].map(abs).max() ?? 0
        XCTAssertGreaterThan(after, 0.05, "audio after the bounce")
        // The file starts 100 ms in.
        guard let aligned = LiveTapAlignment(live: live, render: render, opening: 4_800) else { return }
        XCTAssertGreaterThan(aligned.offset + aligned.render.frames, framesAfterBounce + 24_000,
                             "the comparison reaches past the bounce")
        XCTAssertIdentical(aligned.live, aligned.render, "the live tap across the bounce")

        // (c) The server freewheeled once and is back in realtime.
        XCTAssertEqual(observer.freewheelStarts, 1)
        XCTAssertTrue(observer.wait(timeout: 60) { observer.freewheelStops == 1 })
        XCTAssertFalse(observer.freewheeling)
        XCTAssertTrue(observer.waitForCycleRate { abs($0 - nominalCycleRate) <= nominalCycleRate * 0.5 })
    }

    /// A range through eg-amp at -6 dB is the file's samples in that range
    /// times 10^(-6/20); a bounce that cannot write, or is cancelled, says
    /// so in one sentence and live playing goes on; edits wait meanwhile.
    func testARangeByArithmeticAndACancelledOrFailedBounceLeaveLivePlaying() throws {
        let noise = Audio.noise(channels: 1, frames: 48_000 * 10, amplitude: 0.5, seed: 9)
        try noise.write(path("noise.wav"))
        // The late copy makes the whole timeline half an hour long: a bounce of it outlasts the test.
        try """
        fxhost: 1
        nodes:
          src:  { file: noise.wav }
          late: { file: noise.wav, start: 1800s }
          bus:  { mix: 1 }
          amp:  { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: -6 } }
          main: { output: 1 }
        connect:
          - src -> bus
          - late -> bus
          - bus -> amp
          - amp -> main
        """.write(toFile: path("amp.yaml"), atomically: true, encoding: .utf8)
        let observer = try ServerObserver(server: server.name)
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--quiet",
                               "--tap", "main=\(path("live.wav"))"], console: true)
        XCTAssertTrue(run.waitForTap(path("live.wav"), seconds: 0.5))

        run.type("bounce \(path("part.wav")) --from 1.5 --to 2.5")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("bounced 0:01.0 of audio to \(self.path("part.wav"))") },
                      run.stdout + run.stderr)
        run.type("bounce \(path("missing/folder/x.wav"))")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("x.wav") }, run.stderr)
        run.type("bounce \(path("live.wav"))")
        run.type("bounce \(path("noise.wav"))")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("which file source `src` plays") }, run.stderr)

        run.type("bounce \(path("whole.flac"))")
        XCTAssertTrue(observer.wait(timeout: 60) { observer.freewheelStarts == 2 }, "the second bounce freewheels")
        run.type("set amp gain 0")
        run.type("status --json")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("\"secondsDone\"") }, run.stdout)
        run.type("bounce cancel")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("the bounce was stopped") }, run.stderr)
        let framesAfterCancel = tapFrames(path("live.wav"))
        XCTAssertTrue(eventually(within: 60) { self.tapFrames(self.path("live.wav")) >= framesAfterCancel + 24_000 })
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        // The range: frames [72 000, 120 000) of the file at -6 dB.
        let part = try Audio.read(path("part.wav"))
        let gain = Float(pow(10, -6.0 / 20))
        XCTAssertEqual(part.frames, 48_000, "exactly the range, no tail")
        for frame in 0..<part.frames where abs(part.channels[0][frame] - noise.channels[0][72_000 + frame] * gain) > 1e-6 {
            return XCTFail("frame \(frame): \(part.channels[0][frame]) vs \(noise.channels[0][72_000 + frame] * gain)")
        }

        // Refusals and failures are one sentence each; nothing is left of the cancelled bounce.
        let errors = run.stderr.split(separator: "\n").map(String.init)
        XCTAssertTrue(errors.contains { $0.hasPrefix("fxhost: error: cannot create audio file") && $0.contains("x.wav") },
                      run.stderr)
        XCTAssertTrue(errors.contains { $0.hasPrefix("fxhost: error: fxhost is bouncing to") }, "the edit waited: \(run.stderr)")
        XCTAssertTrue(errors.contains {
            $0.hasPrefix("fxhost: error: a live tap and the bounce of `main` would both write") && $0.contains("live.wav")
        }, run.stderr)
        XCTAssertTrue(errors.contains {
            $0.hasPrefix("fxhost: error: output `main` would overwrite") && $0.contains("noise.wav")
        }, run.stderr)
        XCTAssertTrue(errors.contains {
            $0.hasPrefix("fxhost: error: the bounce was stopped after") && $0.hasSuffix("playing live again")
        }, run.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("whole") }, [])
        XCTAssertFalse(run.stdout.contains("amp:gain = 0"), "the refused edit changed nothing")

        // Live playing went on at -6 dB after both bounces; the server is back in realtime.
        let live = try Audio.read(path("live.wav"))
        let tail = live.channels[0][framesAfterCancel...]
        XCTAssertGreaterThan(tail.map(abs).max() ?? 0, 0.05)
        XCTAssertLessThanOrEqual(tail.map(abs).max() ?? 0, 0.5 * gain + 1e-6)
        XCTAssertEqual(observer.freewheelStarts, 2, "the unwritable file never freewheeled the server")
        XCTAssertTrue(observer.wait(timeout: 60) { observer.freewheelStops == 2 })
        XCTAssertFalse(observer.freewheeling)
        XCTAssertTrue(observer.waitForCycleRate { abs($0 - nominalCycleRate) <= nominalCycleRate * 0.5 })
    }

    /// Ctrl-C in mid-bounce ends the run as usual (exit 0, taps finalised),
    /// with the server out of freewheel and no partial file.
    func testSigintMidBounceSwitchesFreewheelOffAndKeepsNoFile() throws {
        try Audio.noise(channels: 1, frames: 48_000, amplitude: 0.5, seed: 3).write(path("noise.wav"))
        try """
        fxhost: 1
        nodes:
          src:  { file: noise.wav }
          late: { file: noise.wav, start: 1800s }
          bus:  { mix: 1 }
          main: { output: 1 }
        connect: [src -> bus, late -> bus, bus -> main]
        """.write(toFile: path("long.yaml"), atomically: true, encoding: .utf8)
        let observer = try ServerObserver(server: server.name)
        let run = try LiveRun(["run", path("long.yaml"), "--server", server.name, "--quiet", "--json",
                               "--tap", "main=\(path("live.wav"))"], console: true)
        XCTAssertTrue(run.waitForTap(path("live.wav"), seconds: 0.3))
        run.type("bounce \(path("long.flac"))")
        XCTAssertTrue(observer.wait(timeout: 60) { observer.freewheelStarts == 1 })
        XCTAssertTrue(observer.waitForCycleRate(over: 0.3) { $0 > nominalCycleRate * 5 }, "freewheeling")
        run.kill(SIGINT)
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(observer.wait(timeout: 60) { observer.freewheelStops == 1 })
        XCTAssertFalse(observer.freewheeling)
        XCTAssertTrue(observer.waitForCycleRate { abs($0 - nominalCycleRate) <= nominalCycleRate * 0.5 })
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("long.flac") }, [])
        let status = try JSONDecoder().decode(LiveStatus.self, from: Data(run.stdout.split(separator: "\n", maxSplits: 1)[1].utf8))
        XCTAssertEqual(status.taps.map(\.recording), [false])
        XCTAssertNil(status.bounce)
    }
}
