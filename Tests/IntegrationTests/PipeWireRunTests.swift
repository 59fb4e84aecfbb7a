import Foundation
import HostCore
import JackIO
import XCTest

/// `fxhost run` on PipeWire's JACK: the built binary under `pw-jack`, on a
/// headless PipeWire each test starts with the null-sink configuration in
/// `Tests/PipeWire/` and a private runtime folder (`PipeWireServer`). The
/// oracles are the JACK tests' own (`LiveRunTests`, `LiveTapAlignment`),
/// PipeWire's `jack_lsp` for ports and connections, and `pw-metadata`
/// forcing the quantum while fxhost plays.
final class PipeWireRunTests: XCTestCase {
    /// fxhost's ports are registered and connected as the patch says, as
    /// another JACK client (`jack_lsp -c`) sees them, and the connections
    /// carry sound: what fxhost plays into the null sink comes back from the
    /// sink's monitor into fxhost's input at the level it was played.
    func testPortsAreRegisteredAndConnectedAsThePatchSays() throws {
        let server = try startPipeWire()
        let folder = try makeScratchFolder(prefix: "fxhost-pipewire")
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.constant([0.5], frames: 48_000 * 8).write(path("dc.wav"))
        try """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: -6 } }
          main: { output: [system:playback_1] }
          back: { input: [system:monitor_1] }
          rec: { output: 1 }
        connect:
          - dc -> amp
          - amp -> main
          - back -> rec
        taps:
          - { at: back, file: back.wav }
        """.write(toFile: path("loop.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("loop.yaml"), "--quiet"], on: .pipeWire(server), console: true)
        // The amp's level at -6 dB, back from the sink: 0.5 × 10^(-6/20).
        let level = 0.5 * Float(pow(10, -6.0 / 20))
        XCTAssertTrue(eventually(within: 60) {
            guard let back = try? Audio.read(path("back.wav")).channels[0] else { return false }
            return back.reversed().prefix { abs($0 - level) < 1e-6 }.count >= 24_000
        }, "half a second of the amp's level came back through the null sink's monitor")

        let connections = Self.connections(try server.runJackClient("jack_lsp", ["-c"]))
        XCTAssertEqual(connections["fxhost:main"], ["system:playback_1"], "\(connections)")
        XCTAssertEqual(connections["system:playback_1"], ["fxhost:main"], "\(connections)")
        XCTAssertEqual(connections["fxhost:back"], ["system:monitor_1"], "\(connections)")
        XCTAssertEqual(connections["fxhost:rec"], [], "an output given a channel count, not ports, stays unconnected: \(connections)")
        XCTAssertEqual(connections["system:playback_2"], [], "\(connections)")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(eventually(within: 60) {
            (try? server.runJackClient("jack_lsp", []))?.contains("fxhost:") == false
        }, "fxhost's ports are gone once it has quit")
    }

    /// `set`, a typo and `bypass` on the console, judged as on jackd.
    func testConsoleCommandsChangeWhatIsHeard() throws {
        let server = try startPipeWire()
        try LiveRunTests.assertConsoleCommandsChangeWhatIsHeard(on: .pipeWire(server),
                                                                in: makeScratchFolder(prefix: "fxhost-pipewire"))
    }

    /// The live tap equals the offline render in blocks of the quantum.
    func testALiveRunTapsTheSameSamplesAsTheOfflineRender() throws {
        let server = try startPipeWire()
        let patch = try LiveRunTests.writeDrivePatch(makeScratchFolder(prefix: "fxhost-pipewire"))
        try LiveTapAlignment.assertLiveRunMatchesRender(patch: patch, node: "main", server: .pipeWire(server))
    }

    /// The quantum forced to 256, 64, then 1024 again while fxhost plays
    /// (as `pw-metadata -n settings 0 clock.force-quantum N` does for a
    /// user). fxhost's status follows each, and:
    /// - a tap of a counter (frame k holds k + 1) has no gap: after the
    ///   plan's latency (silence, at the start) it is one unbroken count,
    ///   although the plan was rebuilt three times and delays that tap to
    ///   line up with the convolver;
    /// - x42's convolver keeps the impulse response it loaded (0.5 at frame
    ///   480, so a constant 1 gives 0.5), even though the file now holds
    ///   another (0.25): an instance made anew would load that one. It
    ///   restarts its convolution at each new block length (zita-convolver's
    ///   reconfigure), so its input history starts again: at most 480 + 64
    ///   frames (the response's delay and the convolver's latency) of
    ///   silence after each change, then 0.5 again.
    func testAQuantumChangeMidRunKeepsTheConvolversResponseAndTheTapsWhole() throws {
        let server = try startPipeWire()
        let folder = try makeScratchFolder(prefix: "fxhost-pipewire")
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let frames = 48_000 * 30
        try Audio(channels: [(0..<frames).map { Float($0 + 1) / LiveTapPauseRunTests.scale }]).write(path("counter.wav"))
        try Audio.constant([1], frames: frames).write(path("one.wav"))
        _ = try ConvolverPreset.write(in: folder, delay: 480, gain: 0.5)
        try """
        fxhost: 1
        nodes:
          count: { file: counter.wav }
          one: { file: one.wav }
          conv: { plugin: "\(ConvolverPreset.plugin)", params: { ir: echo.wav } }
          a: { output: [system:playback_1] }
          b: { output: [system:playback_2] }
        connect:
          - count -> a
          - one -> conv
          - conv -> b
        taps:
          - { at: count, file: count.wav }
          - { at: conv, file: conv.wav }
        """.write(toFile: path("quantum.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("quantum.yaml"), "--quiet"], on: .pipeWire(server), console: true)
        XCTAssertTrue(eventually(within: 60) { Self.isHalf(Self.lastSample(path("conv.wav"))) }, "the response: 0.5")
        // Loaded: another response in its place on disk shows if it is ever read again.
        _ = try ConvolverPreset.write(in: folder, delay: 480, gain: 0.25)
        XCTAssertEqual(Self.bufferFrames(of: run), PipeWireServer.defaultQuantum)

        for quantum in [256, 64, 1024] {
            try server.forceQuantum(quantum)
            XCTAssertTrue(eventually(within: 60) { Self.bufferFrames(of: run) == quantum },
                          "fxhost plays \(quantum) frames a cycle")
            let played = LiveRun.frames(path("conv.wav"))
            XCTAssertTrue(eventually(within: 60) {
                LiveRun.frames(path("conv.wav")) >= played + 9_600 && Self.isHalf(Self.lastSample(path("conv.wav")))
            }, "the same response after the change to \(quantum): 0.5")
        }
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        // The counter's tap starts with the plan's latency (the convolver's) in silence, once.
        let count = try Audio.read(path("count.wav")).channels[0].drop { $0 == 0 }
        let counted = LiveTapPauseRunTests.runs(of: Array(count))
        XCTAssertEqual(counted.first?.lowerBound, 1)
        XCTAssertEqual(counted.count, 1, "one unbroken count through three quantum changes: \(counted.prefix(8))")

        let conv = try Audio.read(path("conv.wav")).channels[0]
        XCTAssertFalse(conv.contains { abs($0 - 0.25) < 1e-3 }, "the response on disk now was never loaded")
        // Silence and 0.5, each give or take the convolution's rounding.
        let heard = LiveRunTests.runs(of: conv.map { Self.isHalf($0) ? 0.5 : abs($0) < 1e-4 ? 0 : $0 })
        XCTAssertEqual(heard.map(\.value), [0, 0.5, 0, 0.5, 0, 0.5, 0, 0.5],
                       "the response from the start, and again after each change: \(heard.prefix(12))")
        // 64: the latency x42's convolver reports (`fxhost check` shows it), its shortest partition.
        for silence in heard where silence.value == 0 {
            XCTAssertLessThanOrEqual(silence.count, 480 + 64, "\(heard.prefix(12))")
        }
    }

    /// `--reconnect` outlives PipeWire: stopped, the run waits; started again
    /// (the same runtime folder, so the same server to its clients), the run
    /// joins it and the same tap goes on.
    func testWithReconnectTheRunResumesWhenPipeWireReturns() throws {
        let server = try startPipeWire()
        try LiveRunTests.assertARunResumesWhenTheServerReturns(
            on: .pipeWire(server), in: makeScratchFolder(prefix: "fxhost-pipewire"),
            stopServer: { server.stop() }, startServer: { try server.start() })
    }

    // MARK: Helpers

    /// `jack_lsp -c`'s listing as each port's connections.
    static func connections(_ listing: String) -> [String: [String]] {
        var result: [String: [String]] = [:]
        var port: String?
        for line in listing.split(separator: "\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                if let port { result[port, default: []].append(line.trimmingCharacters(in: .whitespaces)) }
            } else {
                port = String(line)
                result[String(line)] = []
            }
        }
        return result
    }

    /// The frames per cycle fxhost reports in `status --json`, asked now (nil if it does not answer).
    private static func bufferFrames(of run: LiveRun) -> Int? {
        let before = LiveTapPauseRunTests.statuses(in: run.stdout).count
        run.type("status --json")
        guard eventually(within: 60, { LiveTapPauseRunTests.statuses(in: run.stdout).count > before }) else { return nil }
        return LiveTapPauseRunTests.statuses(in: run.stdout).last?.bufferFrames
    }

    /// 0.5 give or take the convolution's rounding (a few units in the last place).
    private static func isHalf(_ sample: Float?) -> Bool {
        sample.map { abs($0 - 0.5) < 1e-4 } ?? false
    }

    /// The last frame a recording-mode tap holds so far.
    private static func lastSample(_ path: String) -> Float? {
        (try? Audio.read(path))?.channels.first?.last
    }
}
