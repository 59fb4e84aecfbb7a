import CCoreShim
import Foundation
import HostCore
import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// A bounce from a live session in this process, which links
/// RealtimeSanitizer with halt_on_error: the live callback keeps running
/// (silent) through the freewheel and the swaps around it with no report.
/// The bounced samples themselves are compared with `fxhost render` in the
/// integration tests (LiveBounceTests).
final class LiveSessionBounceTests: XCTestCase {
    func testABounceRunsBesideTheLiveSessionAndHandsItBack() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1)
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try temporaryFolder()
        let clip = folder.appendingPathComponent("dc.wav").path
        try Audio(channels: [[Float](repeating: 0.5, count: 48_000 * 2)]).write(clip)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("dc", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: 48_000 * 2))
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let main = try graph.addOutput("main", channels: 1)
        try graph.connect(player, to: amp)
        try graph.connect(amp, to: main)
        let tap = folder.appendingPathComponent("live.wav").path
        try graph.installTap(on: main, file: tap)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        XCTAssertTrue(eventually(within: 60) { session.taps[0].seconds >= 0.3 })

        let output = folder.appendingPathComponent("bounce.wav").path
        let bounce = try session.startBounce(to: output, startSeconds: 0.5)
        XCTAssertEqual(bounce.files, [output])
        XCTAssertEqual(session.status().bounce?.files, [output])
        XCTAssertThrowsError(try session.setParameter(node: "amp", symbol: "gain", value: .number(-6))) {
            XCTAssertTrue("\($0)".contains("bouncing to"), "\($0)")
        }
        XCTAssertThrowsError(try session.startBounce(to: output))
        let swapsBefore = session.engine.statistics.programSwaps
        let result = try XCTUnwrap(session.finishBounce(wait: true))
        let summary = try result.get()
        XCTAssertNil(session.status().bounce)
        XCTAssertGreaterThan(session.engine.statistics.programSwaps, swapsBefore, "the live plan is back")

        // 1.5 s of 0.5 from 0.5 s on, then silence until whole blocks of 256
        // after the last loud one hold half a second (24 000 frames) of it.
        let bounced = try Audio.read(output).channels[0]
        func blocks(_ frames: Int) -> Int { (frames + 255) / 256 * 256 }
        XCTAssertEqual(summary.frames, bounced.count)
        XCTAssertEqual(bounced.count, blocks(72_000) + blocks(24_000))
        XCTAssertTrue(bounced.prefix(72_000).allSatisfy { $0 == 0.5 })
        XCTAssertTrue(bounced.dropFirst(72_000).allSatisfy { $0 == 0 })

        try session.setParameter(node: "amp", symbol: "gain", value: .number(-6))
        let seconds = session.taps[0].seconds
        XCTAssertTrue(eventually(within: 60) { session.taps[0].seconds >= seconds + 0.3 }, "the live tap goes on")
        let status = try session.finish()
        XCTAssertEqual(status.taps.map(\.droppedFrames), [0])
        // The tap takes every live frame, and none while the bounce runs: the
        // freewheeled frames do not count as time played either.
        XCTAssertEqual(status.seconds, status.taps[0].seconds, accuracy: 0.05)
    }
}
