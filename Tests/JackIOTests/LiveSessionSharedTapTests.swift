import CCoreShim
import Foundation
import Glibc
import HostCore
import JackIO
import LiveControl
import TestSupport
import XCTest

/// A session whose takes live in a supervisor's shared region and are
/// written by the supervisor's `SharedTakes` (as a supervised engine's
/// are) records as one with rings of its own: the take is the constant fed
/// in (0.5, -0.25) throughout, the session itself never opens the file
/// for writing, and the slot is the take's while it records and free once
/// it is finished. This process links RealtimeSanitizer with
/// halt_on_error, so reaching the end also means the callback's pushes
/// into shared memory stayed clean.
final class LiveSessionSharedTapTests: XCTestCase {
    func testATakeInASharedRegionRecordsAndFreesItsSlot() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the realtime check needs the sanitizer linked")
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try makeScratchFolder(prefix: "fxhost-jackio")
        let frames = 48_000 * 30
        let clip = folder.appendingPathComponent("dc.wav").path
        try Audio(channels: [[Float](repeating: 0.5, count: frames), [Float](repeating: -0.25, count: frames)]).write(clip)
        let supervisor = SharedTakes()
        supervisor.start()
        let region = try XCTUnwrap(SharedTapRegion.inherited(descriptor: dup(try XCTUnwrap(supervisor.descriptor))))

        let graph = AudioGraph()
        let player = try graph.addFilePlayer("clip", file: FilePlayerSource(path: clip, channels: 2, sampleRate: 48_000, frames: frames))
        let main = try graph.addOutput("main", channels: 2)
        try graph.connect(player, to: main)
        let take = folder.appendingPathComponent("take.wav").path
        try graph.installTap(on: player, file: take)
        var options = LiveSession.Options(server: server)
        options.tapRegion = region
        let session = try LiveSession(graph: graph, options: options)
        try session.start()
        XCTAssertEqual(region.slots.filter(\.isClaimed).map { $0.published?.path }, [take], "the take's ring is in the region")
        XCTAssertTrue(eventually(within: 60) { (session.taps.first?.seconds ?? 0) >= 0.5 }, "\(session.taps)")
        _ = try session.finish()
        XCTAssertTrue(region.slots.allSatisfy { !$0.isClaimed }, "a finished take leaves nothing for a supervisor")

        let audio = try Audio.read(take)
        XCTAssertGreaterThanOrEqual(audio.frames, 24_000)
        XCTAssertEqual(Set(audio.channels[0]), [0.5])
        XCTAssertEqual(Set(audio.channels[1]), [-0.25])
        XCTAssertEqual(try XCTUnwrap(session.taps.first?.seconds), Double(audio.frames) / 48_000, accuracy: 1e-9,
                       "the status counts what the supervisor wrote")
    }
}
