import Foundation
import XCTest

/// `--threads`: the same bits from any number of threads, offline, through
/// JACK's freewheel, in a batch and live. Oracle: the render on one thread
/// (itself checked against the reference hosts elsewhere). The patch has
/// four parallel branches of stateful plugins that meet on a bus, as a
/// project of stems does, and a send shared by two of them.
final class ParallelRenderCommandTests: XCTestCase {
    static let patch = """
        fxhost: 1
        nodes:
          in:    { input: 2 }
          verb:  { plugin: swh-plugins/gverb, params: { roomsize: 30, revtime: 2 } }
          room:  { plugin: mda/Ambience, params: { size: 0.6 } }
          drive: { plugin: mda/Overdrive, params: { drive: 0.6 } }
          delay: { plugin: mda/Delay, params: { l_delay: 0.2, feedback: 0.5 } }
          echo:  { plugin: mda/Delay, params: { l_delay: 0.4 } }
          bus:   { mix: 2 }
          out:   { output: 2 }
        connect:
          - in:1 -> verb
          - verb -> room
          - room -> bus
          - in -> drive
          - drive -> bus
          - { from: drive, to: echo, gain: -6dB }
          - in -> delay
          - delay -> bus
          - echo -> bus
          - bus -> out
        """

    func testAnyNumberOfThreadsRendersTheSameBits() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.patch.write(toFile: path("wide.yaml"), atomically: true, encoding: .utf8)
        try Audio.noise(channels: 2, frames: 48_000, amplitude: 0.4, seed: 3).write(path("in.wav"))
        for threads in [1, 2, 3, 8] {
            try Tools.fxhost(["render", path("wide.yaml"), "-i", path("in.wav"), "-o", path("out\(threads).wav"),
                              "--threads", "\(threads)", "--block", "96", "--tail", "1s", "--quiet"])
        }
        let serial = try Audio.read(path("out1.wav"))
        XCTAssertGreaterThan(serial.channels[0].map(abs).max() ?? 0, 0.01, "the render is not silent")
        for threads in [2, 3, 8] {
            XCTAssertIdentical(try Audio.read(path("out\(threads).wav")), serial, "\(threads) threads")
        }
    }

    /// A bounce through a JACK server in freewheel mode shares each cycle
    /// with worker threads too, and gives the embedded engine's bits at the
    /// server's buffer size.
    func testAFreewheelBounceWithThreadsMatchesTheEmbeddedRender() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.patch.write(toFile: path("wide.yaml"), atomically: true, encoding: .utf8)
        try Audio.noise(channels: 2, frames: 24_000, amplitude: 0.4, seed: 5).write(path("in.wav"))
        try Tools.fxhost(["render", path("wide.yaml"), "-i", path("in.wav"), "-o", path("embedded.wav"),
                          "--threads", "1", "--block", "256", "--tail", "0", "--quiet"])
        try Tools.fxhost(["render", path("wide.yaml"), "-i", path("in.wav"), "-o", path("freewheel.wav"),
                          "--engine", "jack", "--server", server.name, "--threads", "2", "--tail", "0", "--quiet"])
        XCTAssertIdentical(try Audio.read(path("freewheel.wav")), try Audio.read(path("embedded.wav")))
    }

    func testABatchWithThreadsPerFileMatchesSingleRenders() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.patch.write(toFile: path("wide.yaml"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(atPath: path("takes"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: path("out"), withIntermediateDirectories: true)
        for (index, name) in ["a", "b"].enumerated() {
            try Audio.noise(channels: 2, frames: 9_600, amplitude: 0.4, seed: UInt64(index + 7)).write(path("takes/\(name).wav"))
            try Tools.fxhost(["render", path("wide.yaml"), "-i", path("takes/\(name).wav"), "-o", path("\(name).wav"),
                              "--threads", "1", "--tail", "0", "--quiet"])
        }
        try Tools.fxhost(["render", path("wide.yaml"), "-i", path("takes/*.wav"), "-o", path("out/{name}.wav"),
                          "--jobs", "1", "--threads", "2", "--tail", "0", "--quiet"])
        for name in ["a", "b"] {
            XCTAssertIdentical(try Audio.read(path("out/\(name).wav")), try Audio.read(path("\(name).wav")), name)
        }
    }

    func testThreadsBelowOneAreRefused() throws {
        let folder = try Tools.temporaryFolder()
        let patch = folder.appendingPathComponent("wide.yaml").path
        try Self.patch.write(toFile: patch, atomically: true, encoding: .utf8)
        let result = try Tools.run(Tools.fxhost, ["render", patch, "-o", folder.appendingPathComponent("x.wav").path, "--threads", "0"])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("--threads must be 1 or more"), result.stderr)
    }

    /// Live, with a render worker: the tap of a file-driven wide patch holds
    /// the offline render's samples once aligned (as `LiveRunTests` aligns a chain).
    func testALiveRunWithThreadsTapsTheSameSamplesAsTheOfflineRender() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 128)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 48_000, amplitude: 0.4, seed: 13).write(path("noise.wav"))
        try Self.patch.replacingOccurrences(of: "in:    { input: 2 }", with: "in:    { file: noise.wav, start: 100ms }")
            .write(toFile: path("live.yaml"), atomically: true, encoding: .utf8)
        try LiveTapAlignment.assertLiveRunMatchesRender(patch: path("live.yaml"), node: "out", server: .jack(server),
                                                        runArguments: ["--threads", "2"], renderArguments: ["--threads", "1"])
    }
}
