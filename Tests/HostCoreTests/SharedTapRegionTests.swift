import Foundation
import Glibc
import TestSupport
import XCTest
@testable import HostCore

/// The takes' shared memory, as a supervisor meets it after its engine
/// died: what the recorder pushed and its writer never wrote goes into the
/// file, frame for frame; a slot whose numbers do not add up is left alone.
final class SharedTapRegionTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "fxhost-shared-taps")
    }

    /// `frames` frames counting from `start`: left n, right -n.
    private func pushCounter(_ input: TapRecorder.Input, frames: Int, from start: Int) -> Bool {
        let left = (0..<frames).map { Float(start + $0) }
        let right = left.map { -$0 }
        return left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                [l.baseAddress!, r.baseAddress!].withUnsafeBufferPointer { input.push(channels: $0, frames: frames) }
            }
        }
    }

    private func makeRegion() throws -> SharedTapRegion {
        let (region, descriptor) = try XCTUnwrap(SharedTapRegion.create(slotCount: 2, slotDataBytes: 1 << 20))
        close(descriptor)
        return region
    }

    /// The writer never ran (the engine died first): the supervisor writes
    /// all 2560 pushed frames, and the counter in the file says they are
    /// those frames, in order.
    func testWhatTheWriterNeverWroteIsWrittenFromTheSharedRing() throws {
        let region = try makeRegion()
        let path = directory.appendingPathComponent("take.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48_000, newTake: true,
                                       region: region)
        for block in 0..<10 { XCTAssertTrue(pushCounter(recorder.input, frames: 256, from: block * 256)) }
        let claimed = region.slots.filter(\.isClaimed)
        XCTAssertEqual(claimed.map(\.path), [path])
        XCTAssertEqual(try claimed[0].finishTake(), 2560)
        let audio = try Audio.read(path)
        XCTAssertEqual(audio.channels[0], (0..<2560).map(Float.init))
        XCTAssertEqual(audio.channels[1], (0..<2560).map { -Float($0) })
        claimed[0].release()
        recorder.abort()
    }

    /// The writer died between writing frames and handing their slots back
    /// (it wrote 1000, released 600, 1300 were pushed): only the 300 the
    /// file lacks are added, after what it holds.
    func testOnlyWhatTheFileLacksIsAdded() throws {
        let region = try makeRegion()
        let path = directory.appendingPathComponent("take.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48_000, newTake: true,
                                       region: region)
        XCTAssertTrue(pushCounter(recorder.input, frames: 1300, from: 0))
        // The dead writer's part, done by hand.
        let earlier = try AudioFileWriter(continuing: path, channels: 2, sampleRate: 48_000)
        let region0 = recorder.input.ring.readableRegion()
        try earlier.write(interleaved: region0.baseAddress!, frames: 1000)
        try earlier.close()
        recorder.input.ring.consume(frames: 600)
        let slot = try XCTUnwrap(region.slots.first(where: \.isClaimed))
        XCTAssertEqual(try slot.finishTake(), 300)
        let audio = try Audio.read(path)
        XCTAssertEqual(audio.channels[0], (0..<1300).map(Float.init))
        XCTAssertEqual(audio.channels[1], (0..<1300).map { -Float($0) })
        slot.release()
        recorder.abort()
    }

    /// Numbers a dead engine left that do not add up (a write position
    /// beyond the ring, a file of another width) write nothing.
    func testASlotWhoseNumbersDoNotAddUpIsLeftAlone() throws {
        let region = try makeRegion()
        let path = directory.appendingPathComponent("take.wav").path
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48_000, newTake: true,
                                       region: region)
        XCTAssertTrue(pushCounter(recorder.input, frames: 100, from: 0))
        let slot = try XCTUnwrap(region.slots.first(where: \.isClaimed))
        // The read position beyond the write position.
        slot.ring.consume(frames: 5000)
        XCTAssertEqual(try slot.finishTake(), 0)
        XCTAssertEqual(try Audio.read(path).frames, 0)
        slot.release()
        recorder.abort()
    }

    /// A region hands out its slots once each, and a take too wide for a
    /// slot's half second gets none (it keeps its own ring).
    func testSlotsAreBoundedAndHandedOutOnce() throws {
        let region = try makeRegion()
        XCTAssertNil(region.claim(path: "/x/wide.wav", channels: 64, sampleRate: 48_000, frames: 96_000),
                     "64 channels × 0.5 s × 4 bytes is more than 1 MiB")
        XCTAssertNil(region.claim(path: String(repeating: "a", count: 5000), channels: 1, sampleRate: 48_000, frames: 96_000))
        let first = try XCTUnwrap(region.claim(path: "/x/a.wav", channels: 2, sampleRate: 48_000, frames: 96_000))
        XCTAssertNotNil(region.claim(path: "/x/b.wav", channels: 2, sampleRate: 48_000, frames: 96_000))
        XCTAssertNil(region.claim(path: "/x/c.wav", channels: 2, sampleRate: 48_000, frames: 96_000), "two slots only")
        first.release()
        XCTAssertEqual(region.claim(path: "/x/c.wav", channels: 2, sampleRate: 48_000, frames: 96_000)?.path, "/x/c.wav")
    }

    /// An engine that was given no region (or something else on its
    /// descriptor) finds none.
    func testADescriptorThatIsNoRegionGivesNone() throws {
        let path = directory.appendingPathComponent("other").path
        try Data(repeating: 7, count: 8192).write(to: URL(fileURLWithPath: path))
        let descriptor = open(path, O_RDWR)
        XCTAssertGreaterThanOrEqual(descriptor, 0)
        XCTAssertNil(SharedTapRegion.inherited(descriptor: descriptor))
        XCTAssertNil(SharedTapRegion.inherited(descriptor: 987))
    }
}
