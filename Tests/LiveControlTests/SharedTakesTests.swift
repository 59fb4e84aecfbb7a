import Foundation
import Glibc
@testable import HostCore
@testable import JackIO
import TestSupport
import XCTest
@testable import LiveControl

/// The supervisor's take writer against an engine's recorders (here in one
/// process, each on its own mapping of the region, as across processes):
/// it writes what they push, frame for frame; keeps a take open when its
/// engine dies, so the next one goes on in the same file (a FLAC one too)
/// after silence of the exact time no engine recorded; and refuses what a
/// damaged slot names without touching any other file.
final class SharedTakesTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "fxhost-shared-takes")
    }

    /// An engine's view of the supervisor's region.
    private func engineRegion(_ takes: SharedTakes) throws -> SharedTapRegion {
        try XCTUnwrap(SharedTapRegion.inherited(descriptor: dup(try XCTUnwrap(takes.descriptor))))
    }

    /// `frames` frames counting from `start`: left n/2^20, right the negative.
    private func pushCounter(_ input: TapRecorder.Input, frames: Int, from start: Int) -> Bool {
        let left = (0..<frames).map { Float(start + $0) / 1_048_576 }
        let right = left.map { -$0 }
        return left.withUnsafeBufferPointer { l in
            right.withUnsafeBufferPointer { r in
                [l.baseAddress!, r.baseAddress!].withUnsafeBufferPointer { input.push(channels: $0, frames: frames) }
            }
        }
    }

    private func counter(_ range: Range<Int>) -> [Float] { range.map { Float($0) / 1_048_576 } }

    func testEveryFramePushedIsWrittenByTheSupervisor() throws {
        let takes = SharedTakes()
        takes.start()
        let recorder = try TapRecorder(path: directory.appendingPathComponent("take.wav").path, format: .wavFloat,
                                       channels: 2, sampleRate: 48_000, newTake: true, region: try engineRegion(takes))
        XCTAssertTrue(recorder.isWrittenBySupervisor)
        for block in 0..<40 { XCTAssertTrue(pushCounter(recorder.input, frames: 256, from: block * 256)) }
        try recorder.finish()
        XCTAssertEqual(recorder.framesWritten, 10_240)
        let audio = try Audio.read(recorder.path)
        XCTAssertEqual(audio.channels[0], counter(0..<10_240))
        XCTAssertEqual(audio.channels[1], counter(0..<10_240).map { -$0 })
        takes.stop()
    }

    /// An engine dies mid-take (its recorder is never finished); the next
    /// engine's recorder, started 500 frames after the first one's next
    /// frame was due, goes on in the same FLAC file: 1000 frames, 500 of
    /// silence, 1000 more, and the gap is where and as long as that.
    func testATakeGoesOnInTheSameFileAcrossAnEnginesDeathWithTheGapSilent() throws {
        let takes = SharedTakes()
        takes.start()
        let path = directory.appendingPathComponent("take.flac").path
        let first = try TapRecorder(path: path, format: .flac24, channels: 2, sampleRate: 48_000, newTake: true,
                                    region: try engineRegion(takes))
        first.input.setStartFrame(10_000)
        XCTAssertTrue(pushCounter(first.input, frames: 1000, from: 0))
        // The engine is gone: its recorder is never finished or freed here.
        _ = Unmanaged.passRetained(first)
        var taps = [LiveStatus.Tap(node: "n", file: path, seconds: 0, droppedFrames: 0, recording: true, state: .recording, error: nil)]
        taps[0].startFrame = 10_000
        takes.engineEnded(&taps)
        XCTAssertEqual(taps[0].seconds, 1000.0 / 48_000, accuracy: 1e-12, "what the dead engine pushed is written")
        XCTAssertTrue(takes.isHeld(path))
        takes.handing([path])

        let second = try XCTUnwrap(TapRecorder(adopting: path, channels: 2, sampleRate: 48_000, expectedFrameTime: 10_000,
                                               region: try engineRegion(takes)))
        takes.closeUnadopted()
        XCTAssertFalse(takes.isHeld(path), "the new engine's recorder went on with it")
        second.input.setStartFrame(11_500)
        XCTAssertTrue(pushCounter(second.input, frames: 1000, from: 1000))
        try second.finish()
        XCTAssertEqual(second.gap?.atFrame, 1000)
        XCTAssertEqual(second.gap?.frames, 500)
        takes.stop()

        let audio = try Audio.read(path)
        let expected = counter(0..<1000) + [Float](repeating: 0, count: 500) + counter(1000..<2000)
        XCTAssertEqual(audio.frames, 2500)
        // 24-bit FLAC: each sample within one step of 2^-23.
        for (got, want) in zip(audio.channels[0], expected) { XCTAssertEqual(got, want, accuracy: 1.0 / 8_388_608) }
    }

    /// A slot that names a file which is not the empty take the engine made
    /// (a user's take, its identity wrong) is refused: that file keeps every
    /// byte, the engine's side sees the take failed, and the host hears why.
    /// A path where nothing is gets no file either.
    func testASlotNamingAnotherFileIsRefusedAndThatFileIsUntouched() throws {
        let takes = SharedTakes()
        takes.start()
        let region = try engineRegion(takes)
        let precious = directory.appendingPathComponent("precious.wav").path
        try Audio(channels: [[0.25, 0.5, 0.75]]).write(precious)
        let before = try Data(contentsOf: URL(fileURLWithPath: precious))
        let slot = try XCTUnwrap(region.claim(channels: 1, sampleRate: 48_000, frames: 48_000))
        XCTAssertTrue(slot.publish(path: precious, identity: (1, 2), continuing: false, expectedFrameTime: nil))
        region.wakeWriter()
        XCTAssertTrue(eventually(within: 10) { slot.counters.failed.pointee.load(ordering: .acquiring) })
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: precious)), before)
        XCTAssertNotNil(slot.failureReason)
        XCTAssertEqual(takes.takeFailures().map(\.file), [precious])

        let nowhere = directory.appendingPathComponent("nowhere.wav").path
        let missing = try XCTUnwrap(region.claim(channels: 1, sampleRate: 48_000, frames: 48_000))
        XCTAssertTrue(missing.publish(path: nowhere, identity: (1, 2), continuing: false, expectedFrameTime: nil))
        region.wakeWriter()
        XCTAssertTrue(eventually(within: 10) { missing.counters.failed.pointee.load(ordering: .acquiring) })
        XCTAssertFalse(FileManager.default.fileExists(atPath: nowhere), "no file is created where the slot points")

        // A continuation of a file it neither holds nor handed is refused too.
        missing.release()
        let other = try XCTUnwrap(region.claim(channels: 1, sampleRate: 48_000, frames: 48_000))
        XCTAssertTrue(other.publish(path: precious, identity: nil, continuing: true, expectedFrameTime: nil))
        region.wakeWriter()
        XCTAssertTrue(eventually(within: 10) { other.counters.failed.pointee.load(ordering: .acquiring) })
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: precious)), before)
        takes.stop()
    }

    /// Garbage in a slot (its shape, its ring's positions) ends that take with a sentence and never traps.
    func testGarbageInASlotEndsThatTakeAndNothingElse() throws {
        let takes = SharedTakes()
        takes.start()
        let region = try engineRegion(takes)
        let recorder = try TapRecorder(path: directory.appendingPathComponent("take.wav").path, format: .wavFloat,
                                       channels: 2, sampleRate: 48_000, newTake: true, region: region)
        let slot = try XCTUnwrap(region.slots.first(where: \.isReady))
        XCTAssertTrue(pushCounter(recorder.input, frames: 8, from: 0))
        // The read position beyond the write position.
        slot.ring.consume(frames: 5000)
        region.wakeWriter()
        XCTAssertTrue(eventually(within: 10) { recorder.hasFailed }, "\(String(describing: recorder.failure))")
        XCTAssertEqual(takes.takeFailures().count, 1)

        // A shape that does not fit (channels scribbled before it is published): refused.
        let damaged = try XCTUnwrap(region.claim(channels: 1, sampleRate: 48_000, frames: 48_000))
        damaged.base.advanced(by: 384).storeBytes(of: 1 << 40, as: Int.self)  // channels
        let path = directory.appendingPathComponent("damaged.wav").path
        XCTAssertTrue(damaged.publish(path: path, identity: nil, continuing: false, expectedFrameTime: nil))
        region.wakeWriter()
        XCTAssertTrue(eventually(within: 10) { damaged.counters.failed.pointee.load(ordering: .acquiring) })
        XCTAssertEqual(takes.takeFailures().map(\.reason), ["its slot of shared memory was damaged"])
        // A failed take still closes when its engine ends it.
        recorder.abort()
        XCTAssertFalse(slot.isClaimed)
        takes.stop()
    }

    /// A slot freed under a take being written (its state scribbled to 0)
    /// and published again for another take: the first take is closed with
    /// what it had, and the second goes to its own file, never the first's.
    func testASlotReusedUnderATakeNeverMixesTwoTakes() throws {
        let takes = SharedTakes()
        takes.start()
        let region = try engineRegion(takes)
        let first = try TapRecorder(path: directory.appendingPathComponent("first.wav").path, format: .wavFloat,
                                    channels: 2, sampleRate: 48_000, newTake: true, region: region)
        XCTAssertTrue(pushCounter(first.input, frames: 100, from: 0))
        XCTAssertTrue(eventually(within: 10) { first.framesWritten == 100 })
        let slot = try XCTUnwrap(region.slots.first(where: \.isReady))
        slot.release()  // the scribble
        _ = Unmanaged.passRetained(first)  // its engine never ends it
        let second = try TapRecorder(path: directory.appendingPathComponent("second.wav").path, format: .wavFloat,
                                     channels: 2, sampleRate: 48_000, newTake: true, region: region)
        XCTAssertEqual(region.slots.first(where: \.isReady)?.index, slot.index, "the same slot, published again")
        XCTAssertTrue(pushCounter(second.input, frames: 50, from: 1000))
        try second.finish()
        takes.stop()
        XCTAssertEqual(try Audio.read(directory.appendingPathComponent("first.wav").path).channels[0], counter(0..<100))
        XCTAssertEqual(try Audio.read(second.path).channels[0], counter(1000..<1050))
    }

    /// The run ends with an engine that was never reaped (its takes still
    /// open here): `stop` closes them, so a FLAC take is a whole file.
    func testStopClosesTakesAnEngineLeftOpen() throws {
        let takes = SharedTakes()
        takes.start()
        let recorder = try TapRecorder(path: directory.appendingPathComponent("take.flac").path, format: .flac24,
                                       channels: 2, sampleRate: 48_000, newTake: true, region: try engineRegion(takes))
        XCTAssertTrue(pushCounter(recorder.input, frames: 4800, from: 0))
        XCTAssertTrue(eventually(within: 10) { recorder.framesWritten == 4800 })
        _ = Unmanaged.passRetained(recorder)
        takes.stop()
        let audio = try Audio.read(recorder.path)
        XCTAssertEqual(audio.frames, 4800)
        for (got, want) in zip(audio.channels[0], counter(0..<4800)) { XCTAssertEqual(got, want, accuracy: 1.0 / 8_388_608) }
    }

    /// With no writing thread there is no region to hand an engine: it writes its own takes.
    func testNoRegionIsHandedOutBeforeTheWriterRuns() {
        let takes = SharedTakes()
        XCTAssertNil(takes.descriptor)
        takes.start()
        XCTAssertNotNil(takes.descriptor)
        takes.stop()
    }
}
