import CJack
import CCoreShim
import Foundation
import HostCore
import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// A realistic patch — a stereo file through Overdrive, a per-channel amp
/// and Ambience — played live in this process, which links
/// RealtimeSanitizer with halt_on_error (RealtimeSanitizerTests proves a
/// violation kills it). Reaching the end of the test means the callback made
/// no allocation, lock or blocking call through parameter changes, bypass
/// toggles, tap start/stop, graph edits and a buffer-size change.
final class LiveSessionRealtimeTests: XCTestCase {
    func testARealisticPatchRunsCleanThroughEveryKindOfLiveChange() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the check below needs the sanitizer linked")
        let options = ProcessInfo.processInfo.environment["RTSAN_OPTIONS"] ?? ""
        XCTAssertFalse(options.contains("halt_on_error=false") || options.contains("halt_on_error=0"))

        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 128)
        let folder = try temporaryFolder()
        let frames = 48_000 * 4
        var seed: UInt64 = 7
        let noise = (0..<2).map { _ in
            (0..<frames).map { _ -> Float in
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                return Float(Int32(truncatingIfNeeded: seed >> 32)) / Float(Int32.max) * 0.3
            }
        }
        let clip = folder.appendingPathComponent("noise.wav").path
        try Audio(channels: noise).write(clip)

        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let source = try graph.addFilePlayer("src", file: FilePlayerSource(
            path: clip, channels: 2, sampleRate: 48_000, frames: frames))
        let drive = try graph.addUnit("drive", provider.makeUnit("http://drobilla.net/plugins/mda/Overdrive"))
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let room = try graph.addUnit("room", provider.makeUnit("http://drobilla.net/plugins/mda/Ambience"))
        let main = try graph.addOutput("main", channels: 2)
        try graph.connect(source, to: drive)
        try graph.connect(drive, to: amp)
        try graph.connect(amp, to: room)
        try graph.connect(room, to: main)
        try graph.installTap(on: main, file: folder.appendingPathComponent("main.wav").path)

        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        func settle() { usleep(60_000) }
        settle()

        try session.setParameter(node: "drive", symbol: "drive", value: .number(0.8))
        try session.setParameter(node: "amp", symbol: "gain", value: .number(-3))
        settle()
        for on in [true, false, true, false, true] {
            try session.setBypass(node: "room", on)
            settle()
        }
        let driveTap = folder.appendingPathComponent("drive.flac").path
        try session.startTap(PortReference(node: "drive"), file: driveTap)
        // What is judged below needs a fifth of a second in the take: wait for it, not for a time.
        XCTAssertTrue(eventually(within: 60) {
            session.taps.contains { $0.file == driveTap && $0.seconds >= 0.2 }
        })
        try session.connect(PortReference(node: "src"), to: PortReference(node: "room"), gainDecibels: -12)
        settle()
        try session.setParameter(node: "amp", symbol: "gain", value: .number(-6))
        try session.disconnect(PortReference(node: "src"), to: PortReference(node: "room"))
        settle()
        let stopped = try session.stopTaps(node: "drive")
        settle()
        // A new period size: a silent program while the units re-instantiate, then the rebuilt plan.
        let resizer = try JackClient(name: "resizer", server: server.name)
        XCTAssertEqual(jack_set_buffer_size(try resizer.handle(), 64), 0)
        XCTAssertTrue(eventually(within: 60) {
            try? session.poll()
            return session.plan.format.maxBlockFrames == 64
        })
        XCTAssertEqual(session.isBypassed(node: "room"), true, "the live bypass state survives the rebuild")
        settle()
        let status = try session.finish()

        XCTAssertEqual(stopped.map(\.file), [driveTap])
        XCTAssertGreaterThan(stopped[0].seconds, 0.1)
        XCTAssertGreaterThanOrEqual(status.programSwaps, 7, "first program, tap, connect, disconnect, untap, idle, rebuilt")
        XCTAssertEqual(session.engine.statistics.commandsApplied, 8)
        XCTAssertEqual(status.taps.map(\.droppedFrames), [0, 0])
        // The amp's control memory now holds the last value the realtime thread stored.
        let ampUnit = session.graph.nodes.first { $0.name == "amp" }.flatMap { node -> (any ProcessingUnit)? in
            if case .unit(let unit, _) = node.kind { return unit }
            return nil
        }
        XCTAssertEqual(ampUnit?.parameterValue("gain"), -6)
        let driveTake = try Audio.read(driveTap).channels
        XCTAssertEqual(driveTake.count, 2)
        XCTAssertGreaterThan(driveTake[0].count, 4_800)
        XCTAssertGreaterThan(driveTake[0].map(abs).max() ?? 0, 0.01, "the tapped drive is not silent")
    }
}
