import Foundation
import HostCore
@testable import JackIO
import TestSupport
import XCTest

/// The file player's disk thread without a server: the test plays the
/// callback's part, taking frames through a `LiveFeed` as a cycle would.
final class LiveFilePlayerTests: XCTestCase {
    /// A file six times the ring's size: the ring is filled once before the
    /// start, so every later frame arrives only if taking frames wakes the
    /// disk thread (it waits on a semaphore, it does not poll). Every frame
    /// must come out once, in order.
    func testTakingFramesWakesTheDiskThreadUntilTheFileIsPlayed() throws {
        let frames = 6 * 8192
        let (player, ramp) = try rampPlayer(frames: frames)
        XCTAssertEqual(player.ring.capacity, 8192)
        player.prime()
        try player.start()
        defer { player.stop() }

        let block = 256
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { buffer.deallocate() }
        let buffers = [buffer]
        var played: [Float] = []
        buffers.withUnsafeBufferPointer { pointers in
            let feed = LiveFeed(ring: player.ring, buffers: pointers.baseAddress!, counters: player.counters,
                                spaceFreed: player.spaceFreed, wakeFrames: player.chunkFrames)
            let deadline = Date().addingTimeInterval(60)
            while played.count < frames && Date() < deadline {
                // Take a block only when it is there: an underrun here is the test's pace, not the player's.
                guard player.ring.readableFrames >= min(block, frames - played.count) else {
                    sched_yield()
                    continue
                }
                let count = min(block, frames - played.count)
                feed.fill(frames: count)
                played += UnsafeBufferPointer(start: buffer, count: count)
            }
        }
        XCTAssertEqual(played.count, frames, "the disk thread stopped refilling the ring")
        XCTAssertEqual(played, ramp)
        XCTAssertEqual(player.underrunFrames, 0)
        XCTAssertTrue(eventually(within: 30) { player.finished })
        // Woken once per chunk of room (4096 frames), not once per block
        // taken: the 40960 frames after the first ring-full are 10 chunks,
        // against 160 blocks of 256.
        let wakeups = player.counters.pointee.diskWakeups.load(ordering: .relaxed)
        XCTAssertGreaterThan(wakeups, 0)
        XCTAssertLessThanOrEqual(wakeups, (frames - 8192) / player.chunkFrames + 1)
    }

    /// A resumed player whose first fill must skip more than its ring
    /// holds (the engine took long to start): the skip empties the ring, so
    /// it must wake the sleeping disk thread, and the fills after it go on
    /// skipping until the file plays exactly where its origin puts the
    /// clock. Origin 0, primed at frame time 0 (the ring starts at frame 0),
    /// first fill at frame time 20000: 20000 / 8192 rings to skip.
    func testAResumedFileSkipsMoreThanItsRingAndPlaysOnWhereItsClockSays() throws {
        let (player, ramp) = try rampPlayer(frames: 6 * 8192, resumingFrom: 0)
        player.prime(at: 0)
        try player.start()
        defer { player.stop() }

        let block = 256
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: block)
        defer { buffer.deallocate() }
        let buffers = [buffer]
        var time = 20_000
        var heard: (time: Int, sample: Float)?
        buffers.withUnsafeBufferPointer { pointers in
            let feed = LiveFeed(ring: player.ring, buffers: pointers.baseAddress!, counters: player.counters,
                                spaceFreed: player.spaceFreed, wakeFrames: player.chunkFrames)
            let deadline = Date().addingTimeInterval(30)
            while heard == nil && Date() < deadline {
                feed.fill(frames: block, frameTime: time)
                if buffer[0] > 0 { heard = (time, buffer[0]) }  // the file's, not an underrun's silence
                time += block
                usleep(2000)  // the disk thread's turn, as between cycles
            }
        }
        let (at, sample) = try XCTUnwrap(heard, "the file never played again: the disk thread was not woken")
        XCTAssertEqual(sample, ramp[at], "the file plays the frame its origin puts at frame time \(at)")
    }

    /// A player of a mono ramp file of `frames` frames (frame k is k / frames)
    /// with the smallest ring the player makes (8192 frames), and the ramp.
    private func rampPlayer(frames: Int, resumingFrom origin: Int? = nil) throws -> (LiveFilePlayer, [Float]) {
        let path = try temporaryFolder().appendingPathComponent("ramp.wav").path
        let ramp = (0..<frames).map { Float($0) / Float(frames) }
        try Audio(channels: [ramp]).write(path)
        let player = try LiveFilePlayer(node: "ramp", source: FilePlayerSource(
            path: path, channels: 1, sampleRate: 48_000, frames: frames), sampleRate: 48_000, ringSeconds: 0,
            resumingFrom: origin)
        return (player, ramp)
    }
}
