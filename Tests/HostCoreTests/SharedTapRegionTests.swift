import Foundation
import Glibc
import TestSupport
import XCTest
@testable import HostCore

/// The takes' shared memory, from the engine's side: a live take is
/// published for the supervisor to write, slots are bounded and handed out
/// once, and a descriptor that is no region gives none.
final class SharedTapRegionTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "fxhost-shared-taps")
    }

    private func makeRegion() throws -> SharedTapRegion {
        let (region, descriptor) = try XCTUnwrap(SharedTapRegion.create(slotCount: 2, slotDataBytes: 1 << 20))
        close(descriptor)
        return region
    }

    /// A live take in a region is the supervisor's to write: the recorder
    /// creates the file empty (so a name taken goes to the next number, as
    /// ever), publishes it with the file's own device and inode, and opens
    /// no writer of its own.
    func testARecorderInARegionCreatesItsTakeEmptyAndPublishesIt() throws {
        let region = try makeRegion()
        let path = directory.appendingPathComponent("take.wav").path
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: path))
        let recorder = try TapRecorder(path: path, format: .wavFloat, channels: 2, sampleRate: 48_000, newTake: true,
                                       region: region)
        XCTAssertTrue(recorder.isWrittenBySupervisor)
        XCTAssertEqual(recorder.path, directory.appendingPathComponent("take-2.wav").path)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path)), Data([1, 2, 3]), "the file that was there is untouched")
        let slot = try XCTUnwrap(region.slots.first(where: \.isReady))
        let published = try XCTUnwrap(slot.published)
        var info = stat()
        XCTAssertEqual(stat(recorder.path, &info), 0)
        XCTAssertEqual(info.st_size, 0)
        XCTAssertEqual(published.path, recorder.path)
        XCTAssertEqual(published.identity.device, UInt64(info.st_dev))
        XCTAssertEqual(published.identity.inode, UInt64(info.st_ino))
        XCTAssertFalse(published.continuing)
        XCTAssertEqual(published.channels, 2)
        slot.markClosed()  // what the supervisor does once it wrote the take
        recorder.abort()
        XCTAssertFalse(slot.isClaimed, "the slot is handed back once the supervisor closed the take")
    }

    /// An offline (waiting) recorder, or one with no slot to fit, writes its own file.
    func testAnOfflineRecorderOrOneTooWideWritesItsOwnFile() throws {
        let region = try makeRegion()
        let offline = try TapRecorder(path: directory.appendingPathComponent("a.wav").path, format: .wavFloat, channels: 2,
                                      sampleRate: 48_000, policy: .waitWhenFull, newTake: true, region: region)
        XCTAssertFalse(offline.isWrittenBySupervisor)
        let wide = try TapRecorder(path: directory.appendingPathComponent("b.wav").path, format: .wavFloat, channels: 64,
                                   sampleRate: 48_000, newTake: true, region: region)
        XCTAssertFalse(wide.isWrittenBySupervisor, "64 channels × 0.5 s × 4 bytes is more than a 1 MiB slot")
        XCTAssertTrue(region.slots.allSatisfy { !$0.isClaimed })
        try offline.finish()
        try wide.finish()
    }

    /// A region hands out its slots once each, and a take too wide for a
    /// slot's half second gets none (it keeps its own ring).
    func testSlotsAreBoundedAndHandedOutOnce() throws {
        let region = try makeRegion()
        XCTAssertNil(region.claim(channels: 64, sampleRate: 48_000, frames: 96_000),
                     "64 channels × 0.5 s × 4 bytes is more than 1 MiB")
        let first = try XCTUnwrap(region.claim(channels: 2, sampleRate: 48_000, frames: 96_000))
        XCTAssertFalse(first.publish(path: String(repeating: "a", count: 5000), identity: nil, continuing: false, expectedFrameTime: nil),
                       "a name longer than a slot holds is not published")
        XCTAssertNil(first.published)
        XCTAssertNotNil(region.claim(channels: 2, sampleRate: 48_000, frames: 96_000))
        XCTAssertNil(region.claim(channels: 2, sampleRate: 48_000, frames: 96_000), "two slots only")
        first.release()
        let again = try XCTUnwrap(region.claim(channels: 2, sampleRate: 48_000, frames: 96_000))
        XCTAssertTrue(again.publish(path: "/x/c.wav", identity: nil, continuing: false, expectedFrameTime: nil))
        XCTAssertEqual(again.published?.path, "/x/c.wav")
    }

    /// The source clocks' table: entries by name, bounded, handed out once,
    /// read back with their names, and freed all at once by the supervisor.
    func testSourceClockEntriesAreBoundedNamedAndFreed() throws {
        let region = try makeRegion()
        XCTAssertNil(region.claimClock(name: ""))
        XCTAssertNil(region.claimClock(name: String(repeating: "n", count: 200)), "a name longer than an entry holds")
        let song = try XCTUnwrap(region.claimClock(name: "song"))
        song.storeBytes(of: 12_345, as: Int.self)
        var claimed = [song]
        while let more = region.claimClock(name: "s\(claimed.count)") { claimed.append(more) }
        XCTAssertEqual(claimed.count, 24, "the table holds 24 sources")
        XCTAssertEqual(Set(claimed).count, 24, "each entry handed out once")
        let read = region.clocks
        XCTAssertEqual(read.count, 24)
        XCTAssertEqual(read.first { $0.name == "song" }?.cells.load(as: Int.self), 12_345)
        XCTAssertTrue(region.releaseClock(song))
        XCTAssertFalse(region.releaseClock(song + 8), "not an entry's cells")
        XCTAssertEqual(region.clocks.count, 23)
        region.releaseAllClocks()
        XCTAssertTrue(region.clocks.isEmpty)
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
