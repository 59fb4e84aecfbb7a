import Foundation
import XCTest
@testable import HostCore

final class SPSCFloatRingTests: XCTestCase {
    /// Block sizes that do not divide the capacity, so writes wrap at every offset.
    static let blockSizes = [1, 7, 64, 127, 300, 513]

    func testAllOrNothingAndWrapAround() {
        let ring = SPSCFloatRing(channels: 2, capacity: 10)
        defer { ring.deallocate() }
        let left: [Float] = (0..<8).map(Float.init), right: [Float] = (0..<8).map { -Float($0) }
        func push(_ frames: Int, from offset: Int = 0) -> Bool {
            left.withUnsafeBufferPointer { l in
                right.withUnsafeBufferPointer { r in
                    [l.baseAddress!, r.baseAddress!].withUnsafeBufferPointer {
                        ring.write(channels: $0, offset: offset, frames: frames)
                    }
                }
            }
        }
        XCTAssertEqual(ring.writableFrames, 10)
        XCTAssertTrue(push(8))
        XCTAssertFalse(push(3), "3 frames do not fit in the 2 left")
        XCTAssertEqual(ring.readableFrames, 8, "a refused block writes nothing")
        var out = [Float](repeating: 0, count: 20)
        XCTAssertEqual(ring.read(into: &out, maxFrames: 6), 6)
        XCTAssertEqual(Array(out[0..<12]), [0, 0, 1, -1, 2, -2, 3, -3, 4, -4, 5, -5])
        // Source frames 3…7 go to slots 8, 9, 0, 1, 2: a wrap.
        XCTAssertTrue(push(5, from: 3))
        XCTAssertEqual(ring.readableFrames, 7)
        XCTAssertEqual(ring.readableRegion().count, 4 * 2, "slots 6…9 lie before the wrap")
        XCTAssertEqual(ring.read(into: &out, maxFrames: 20), 7)
        XCTAssertEqual(Array(out[0..<14]), [6, -6, 7, -7, 3, -3, 4, -4, 5, -5, 6, -6, 7, -7])
        XCTAssertEqual(ring.readableFrames, 0)
        XCTAssertEqual(ring.writableFrames, 10)
    }

    /// A producer thread writes a counter (n on channel 0, -n on channel 1)
    /// in uneven blocks; the consumer must see every frame once, in order.
    func testCounterSequenceSurvivesTwoThreads() {
        let total = 1_000_000
        let ring = SPSCFloatRing(channels: 2, capacity: 1000)
        defer { ring.deallocate() }
        let producer = Thread {
            let maxBlock = Self.blockSizes.max()!
            let left = UnsafeMutablePointer<Float>.allocate(capacity: maxBlock)
            let right = UnsafeMutablePointer<Float>.allocate(capacity: maxBlock)
            defer { left.deallocate(); right.deallocate() }
            let pointers = [UnsafePointer(left), UnsafePointer(right)]
            var next = 0, choice = 0
            while next < total {
                let frames = min(Self.blockSizes[choice % Self.blockSizes.count], total - next)
                choice += 1
                for index in 0..<frames {
                    left[index] = Float(next + index)
                    right[index] = -Float(next + index)
                }
                while !pointers.withUnsafeBufferPointer({ ring.write(channels: $0, frames: frames) }) {
                    sched_yield()
                }
                next += frames
            }
        }
        producer.start()

        var expected = 0, mismatches = 0
        var buffer = [Float](repeating: 0, count: 2 * 333)
        while expected < total {
            let got = ring.read(into: &buffer, maxFrames: 333)
            if got == 0 { sched_yield(); continue }
            for frame in 0..<got where buffer[2 * frame] != Float(expected + frame)
                || buffer[2 * frame + 1] != -Float(expected + frame) {
                mismatches += 1
            }
            expected += got
        }
        XCTAssertEqual(expected, total)
        XCTAssertEqual(mismatches, 0)
        // Nothing beyond the sequence arrives: once the producer has ended, the ring is empty.
        let deadline = Date().addingTimeInterval(60)
        while !producer.isFinished && Date() < deadline { usleep(1_000) }
        XCTAssertTrue(producer.isFinished)
        XCTAssertEqual(ring.readableFrames, 0)
    }
}

extension SPSCFloatRing {
    /// Copies up to `maxFrames` interleaved frames into `destination` and
    /// consumes them; returns the number copied. The tests' reader: the
    /// host's readers take regions in place (`LiveFeed.fill`, the tap writer).
    func read(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        var copied = 0
        while copied < maxFrames {
            let region = readableRegion()
            let frames = min(region.count / channels, maxFrames - copied)
            guard frames > 0, let base = region.baseAddress else { break }
            let target = destination + copied * channels
            for index in 0..<frames * channels { target[index] = base[index] }
            consume(frames: frames)
            copied += frames
        }
        return copied
    }
}
