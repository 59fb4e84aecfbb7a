import Foundation
import JackIO
import XCTest

/// `fxhost render --engine jack` on a private dummy server (48 kHz, 256
/// frames). Oracles: the embedded driver at the same block size (bit for
/// bit), the same render again, arithmetic for the mix, and the server's
/// own cycle rate and freewheel notifications for "back in realtime".
final class FreewheelBounceTests: XCTestCase {
    static let rate = 48_000, buffer = 256
    /// Realtime: rate / buffer cycles a second (187.5).
    let nominalCycleRate = Double(rate) / Double(buffer)

    private var server: JackServerProcess!
    private var folder: URL!

    override func setUpWithError() throws {
        server = try startJackServer(sampleRate: Self.rate, bufferFrames: Self.buffer)
        folder = try Tools.temporaryFolder(name)
    }

    private func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    @discardableResult
    private func bounce(_ patch: String, to output: String, _ extra: [String] = []) throws -> Tools.Result {
        try Tools.fxhost(["render", patch, "-o", output, "--engine", "jack", "--server", server.name, "--quiet"] + extra)
    }

    /// Noise through mda plugins (one with a long tail) from a file source.
    private func writeMdaProject() throws -> String {
        try Audio.noise(channels: 2, frames: 24_000, amplitude: 0.4, seed: 7).write(path("stem.wav"))
        try """
        fxhost: 1
        nodes:
          stem:  { file: stem.wav, start: 10ms, gain: -2dB }
          drive: { plugin: http://drobilla.net/plugins/mda/Overdrive, params: { drive: 0.6 } }
          room:  { plugin: http://drobilla.net/plugins/mda/Ambience, params: { mix: 0.4 } }
          out:   { output: 2 }
        chain: [stem, drive, room, out]
        taps:
          - { at: drive, file: drive.wav }
        """.write(toFile: path("project.yaml"), atomically: true, encoding: .utf8)
        return path("project.yaml")
    }

    func testFreewheelBounceEqualsTheEmbeddedRenderBitForBitAndRepeats() throws {
        let project = try writeMdaProject()
        try bounce(project, to: path("jack1.wav"), ["--tail", "2s"])
        let jackTap = try Audio.read(path("drive.wav"))
        try bounce(project, to: path("jack2.wav"), ["--tail", "2s"])
        try Tools.fxhost(["render", project, "-o", path("embedded.wav"), "--block", "\(Self.buffer)", "--tail", "2s", "--quiet"])
        let embeddedTap = try Audio.read(path("drive.wav"))

        let jack1 = try Audio.read(path("jack1.wav"))
        XCTAssertGreaterThan(jack1.frames, 24_000 + 480, "the sources, their offset and some tail")
        XCTAssertGreaterThan(jack1.peak, 0.1)
        XCTAssertIdentical(jack1, try Audio.read(path("embedded.wav")), "freewheel vs embedded")
        XCTAssertIdentical(try Audio.read(path("jack2.wav")), jack1, "one bounce vs the next")
        XCTAssertIdentical(jackTap, embeddedTap, "tap")
    }

    func testTheServerIsBackInRealtimeAfterABounce() throws {
        let observer = try ServerObserver(server: server.name)
        XCTAssertTrue(observer.waitForCycleRate { abs($0 - nominalCycleRate) <= nominalCycleRate * 0.5 },
                      "baseline: realtime")
        try bounce(try writeMdaProject(), to: path("mix.wav"), ["--tail", "1s"])
        XCTAssertEqual(observer.freewheelStarts, 1, "the bounce freewheeled the server")
        XCTAssertTrue(observer.wait(timeout: 60) { observer.freewheelStops == 1 }, "and switched freewheel off")
        XCTAssertFalse(observer.freewheeling)
        XCTAssertTrue(observer.waitForCycleRate { abs($0 - nominalCycleRate) <= nominalCycleRate * 0.5 },
                      "cycles at the realtime rate again")
    }

    /// Starts bouncing half an hour of timeline (a short file starting late),
    /// far longer than any test waits, and returns once the server freewheels.
    private func startLongBounce(observer: ServerObserver) throws -> (Process, Pipe) {
        try Audio.noise(channels: 1, frames: 4800).write(path("late.wav"))
        try """
        fxhost: 1
        nodes:
          late: { file: late.wav, start: 1800s }
          out:  { output: 1 }
        chain: [late, out]
        """.write(toFile: path("long.yaml"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.fxhost)
        process.arguments = ["render", path("long.yaml"), "-o", path("long.flac"), "--engine", "jack",
                             "--server", server.name, "--tail", "0", "--quiet"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        XCTAssertTrue(observer.wait(timeout: 60) { observer.freewheelStarts == 1 }, "the bounce started freewheeling")
        return (process, errors)
    }

    private func outputLeftovers() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("long.flac") }
    }

    func testTheServerShuttingDownMidBounceEndsItWithOneSentenceAndNoFile() throws {
        let observer = try ServerObserver(server: server.name)
        let (process, errors) = try startLongBounce(observer: observer)
        server.stop()
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertTrue(message.contains("shut down during the bounce"), message)
        XCTAssertEqual(try outputLeftovers(), [])
    }

    func testSigintMidBounceSwitchesFreewheelOffAndKeepsNoFile() throws {
        try interruptMidBounce(SIGINT, name: "SIGINT")
    }

    func testSigtermMidBounceSwitchesFreewheelOffAndKeepsNoFile() throws {
        try interruptMidBounce(SIGTERM, name: "SIGTERM")
    }

    private func interruptMidBounce(_ signal: Int32, name: String) throws {
        let observer = try ServerObserver(server: server.name)
        let (process, errors) = try startLongBounce(observer: observer)
        XCTAssertTrue(observer.waitForCycleRate(over: 0.3) { $0 > nominalCycleRate * 5 }, "freewheeling: far faster than realtime")
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)

        XCTAssertEqual(process.terminationReason, .exit, "fxhost handled the signal itself")
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertTrue(message.contains("interrupted by \(name)"), message)
        XCTAssertTrue(observer.wait(timeout: 60) { observer.freewheelStops == 1 }, "freewheel was switched off")
        XCTAssertFalse(observer.freewheeling)
        XCTAssertTrue(observer.waitForCycleRate { abs($0 - nominalCycleRate) <= nominalCycleRate * 0.5 },
                      "cycles at the realtime rate again")
        XCTAssertEqual(try outputLeftovers(), [], "no output, complete-looking or partial")
    }

    /// A plugin that segfaults mid-bounce (after 20 blocks of a second of
    /// noise): one sentence, no file, freewheel off, and the server whole:
    /// it plays at the realtime rate, takes a new client, and freewheels the
    /// next bounce, whose output is the embedded render's. jackd2 left alone
    /// plays no cycle again once a freewheeling client died.
    func testAPluginCrashMidBounceLeavesTheServerPlayingAndBouncingAgain() throws {
        try crashMidBounce(plugin: CrashingPlugins.crashInRun,
                           // 20 blocks of the server's 256 frames passed: 5120 / 48000 s.
                           saying: "(Crashy Effect) crashed in run() (SIGSEGV) at 0:00.107 of the input")
    }

    /// The same with a stack overflow on libjack's own process thread, which
    /// reaches the report only on an alternate signal stack of its own.
    func testAStackOverflowMidBounceIsReportedAndLeavesTheServerPlaying() throws {
        try crashMidBounce(plugin: CrashingPlugins.overflowInRun, saying: "(Deep Effect) crashed in run() (SIGSEGV) at 0:00.107 of the input")
    }

    private func crashMidBounce(plugin: String, saying sentence: String) throws {
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("plugins"))
        let environment = ["LV2_PATH": plugins.path, "TMPDIR": path("plugins")]  // crash logs stay in the test's folder
        try Audio.noise(channels: 1, frames: 48_000, amplitude: 0.5, seed: 3).write(path("in.wav"))
        let observer = try ServerObserver(server: server.name)
        // Bounded: on a server wedged by a client that died freewheeling, a bounce never ends.
        func bounce(_ plugin: String, after blocks: Int, to output: String, _ extra: [String] = []) throws -> Tools.Result {
            try Tools.run("/usr/bin/timeout", ["-k", "10", "120", Tools.fxhost, "render", "--chain", "\(plugin) after=\(blocks)",
                                               "-i", path("in.wav"), "-o", path(output), "--engine", "jack",
                                               "--server", server.name, "--tail", "0"] + extra, environment: environment)
        }
        let crashed = try bounce(plugin, after: 20, to: "crash.wav")
        XCTAssertEqual(crashed.status, 1)
        XCTAssertEqual(crashed.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: error:") }.count, 1, crashed.stderr)
        XCTAssertTrue(crashed.stderr.contains(sentence), crashed.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains("crash.wav") }, [],
                       "no output, complete-looking or partial")
        XCTAssertEqual(observer.freewheelStarts, 1)
        guard observer.wait(timeout: 60, until: { observer.freewheelStops == 1 }) else {
            return XCTFail("freewheel was never switched off: the server is stuck")
        }
        XCTAssertTrue(observer.waitForCycleRate { abs($0 - nominalCycleRate) <= nominalCycleRate * 0.5 },
                      "cycles at the realtime rate again")
        let newcomer = try ServerObserver(server: server.name)
        XCTAssertTrue(newcomer.waitForCycleRate { $0 > 0 }, "a new client plays")
        // The server freewheels again; and --json's summary is on stdout, from the child that rendered.
        let again = try bounce(CrashingPlugins.crashInRun, after: 1_000_000, to: "again.wav", ["--json"])
        XCTAssertEqual(again.status, 0, again.stderr)
        let summary = try JSONSerialization.jsonObject(with: Data(again.stdout.utf8)) as? [String: Any]
        XCTAssertEqual(summary?["frames"] as? Int, 48_000, again.stdout)
        try Tools.run(Tools.fxhost, ["render", "--chain", "\(CrashingPlugins.crashInRun) after=1000000", "-i", path("in.wav"),
                                     "-o", path("embedded.wav"), "--block", "\(Self.buffer)", "--tail", "0"], environment: environment)
        XCTAssertIdentical(try Audio.read(path("again.wav")), try Audio.read(path("embedded.wav")), "freewheel vs embedded")
    }

    func testThreeStemsWithOffsetsGainsAndPanMixByArithmetic() throws {
        let frames = 6000
        let drums = Audio.noise(channels: 2, frames: frames, amplitude: 0.3, seed: 11)
        let bass = Audio.noise(channels: 1, frames: frames, amplitude: 0.3, seed: 12)
        let vox = Audio.noise(channels: 1, frames: frames, amplitude: 0.3, seed: 13)
        try drums.write(path("drums.wav"))
        try bass.write(path("bass.wav"))
        try vox.write(path("vox.wav"))
        try """
        fxhost: 1
        nodes:
          drums: { file: drums.wav, gain: -3dB }
          bass:  { file: bass.wav, start: 25ms, pan: -0.5 }
          vox:   { file: vox.wav, start: 100ms, gain: -6dB, pan: 0.25 }
          bus:   { mix: 2 }
          out:   { output: 2 }
        connect:
          - drums -> bus
          - bass -> bus
          - vox -> bus
          - bus -> out
        """.write(toFile: path("stems.yaml"), atomically: true, encoding: .utf8)
        try bounce(path("stems.yaml"), to: path("mix.wav"), ["--tail", "0"])
        let mix = try Audio.read(path("mix.wav"))

        // Mono files pan by the constant-power law: left cos, right sin of (pan + 1)·π/4.
        func panned(_ pan: Double, gainDecibels: Double) -> [Float] {
            let gain = pow(10, gainDecibels / 20), angle = (pan + 1) * Double.pi / 4
            return [Float(gain * cos(angle)), Float(gain * sin(angle))]
        }
        let drumsGain = Float(pow(10, -3.0 / 20))
        let bassGains = panned(-0.5, gainDecibels: 0), voxGains = panned(0.25, gainDecibels: -6)
        let bassStart = 1200, voxStart = 4800  // 25 ms and 100 ms at 48 kHz
        XCTAssertEqual(mix.frames, voxStart + frames, "length: the latest source's end")
        for channel in 0..<2 {
            for frame in 0..<mix.frames {
                var expected: Float = frame < frames ? drums.channels[channel][frame] * drumsGain : 0
                if (bassStart..<bassStart + frames).contains(frame) {
                    expected += bass.channels[0][frame - bassStart] * bassGains[channel]
                }
                if (voxStart..<voxStart + frames).contains(frame) {
                    expected += vox.channels[0][frame - voxStart] * voxGains[channel]
                }
                if abs(mix.channels[channel][frame] - expected) > 2e-6 {
                    return XCTFail("channel \(channel + 1) frame \(frame): \(mix.channels[channel][frame]) vs \(expected)")
                }
            }
        }
    }

    func testAMissingServerAndABlockSizeAreRefused() throws {
        try Audio.noise(channels: 1, frames: 480).write(path("short.wav"))
        try "fxhost: 1\nnodes:\n  s: { file: short.wav }\n  out: { output: 1 }\nchain: [s, out]\n"
            .write(toFile: path("short.yaml"), atomically: true, encoding: .utf8)
        let missing = try Tools.run(Tools.fxhost, ["render", path("short.yaml"), "-o", path("o.wav"),
                                                   "--engine", "jack", "--server", server.name + "-missing"])
        XCTAssertEqual(missing.status, 1)
        XCTAssertTrue(missing.stderr.contains("no JACK server named `\(server.name)-missing` is running"), missing.stderr)
        let block = try Tools.run(Tools.fxhost, ["render", path("short.yaml"), "-o", path("o.wav"),
                                                 "--engine", "jack", "--server", server.name, "--block", "128"])
        XCTAssertNotEqual(block.status, 0)
        XCTAssertTrue(block.stderr.contains("the server's buffer size"), block.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("o.wav")))
    }

    func testAServerAtAnotherRateIsRefusedInOneSentence() throws {
        try Audio.noise(channels: 1, frames: 4410, sampleRate: 44_100).write(path("cd.wav"))
        try """
        fxhost: 1
        nodes:
          cd:  { file: cd.wav }
          out: { output: 1 }
        chain: [cd, out]
        """.write(toFile: path("cd.yaml"), atomically: true, encoding: .utf8)
        let result = try Tools.run(Tools.fxhost, ["render", path("cd.yaml"), "-o", path("cd-out.wav"),
                                                  "--engine", "jack", "--server", server.name])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("44100 Hz but the JACK server runs at 48000 Hz"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("cd-out.wav")))
    }
}
