import Foundation
import XCTest
@testable import HostCore

/// The one ring the float ring, the command queue and the worker's byte ring
/// are built on: slots, spans across the wrap, and the all-or-nothing reserve.
final class SPSCRingTests: XCTestCase {
    /// Writes `values` into a reserved span, one Int32 per slot.
    private func fill(_ span: SPSCRingSpan, with values: [Int32]) {
        for (index, value) in values.enumerated() {
            let slot = index < span.firstCount ? span.first + 4 * index : span.second + 4 * (index - span.firstCount)
            slot.storeBytes(of: value, as: Int32.self)
        }
    }

    private func contents(_ span: SPSCRingSpan) -> [Int32] {
        (0..<span.count).map { index in
            let slot = index < span.firstCount ? span.first + 4 * index : span.second + 4 * (index - span.firstCount)
            return slot.load(as: Int32.self)
        }
    }

    func testSpansWrapAtTheEndOfStorage() {
        let ring = SPSCRing(capacity: 5, slotSize: 4)
        defer { ring.deallocate() }
        XCTAssertEqual(ring.writableCount, 5)
        fill(ring.reserve(3)!, with: [1, 2, 3])
        XCTAssertEqual(ring.readableCount, 0, "nothing is readable before it is published")
        ring.publish(3)
        XCTAssertEqual(contents(ring.readable()), [1, 2, 3])
        ring.release(2)
        // Slots 3 and 4, then 0 and 1: the span wraps after two.
        let span = ring.reserve(4)!
        XCTAssertEqual(span.firstCount, 2)
        XCTAssertEqual(span.secondCount, 2)
        fill(span, with: [4, 5, 6, 7])
        ring.publish(4)
        let readable = ring.readable()
        XCTAssertEqual(readable.firstCount, 3, "slots 2, 3 and 4 lie before the wrap")
        XCTAssertEqual(contents(readable), [3, 4, 5, 6, 7])
        ring.release(5)
        XCTAssertEqual(ring.readableCount, 0)
        XCTAssertEqual(ring.writableCount, 5)
    }

    func testReserveIsAllOrNothing() {
        let ring = SPSCRing(capacity: 4, slotSize: 4)
        defer { ring.deallocate() }
        fill(ring.reserve(3)!, with: [1, 2, 3])
        ring.publish(3)
        XCTAssertNil(ring.reserve(2), "2 slots do not fit in the 1 left")
        XCTAssertNotNil(ring.reserve(1))
        XCTAssertEqual(ring.readableCount, 3, "a refused reserve publishes nothing")
        XCTAssertNil(ring.reserve(5), "more than the capacity never fits")
    }

    /// A producer thread publishes a counter in uneven batches through a
    /// ring whose capacity divides none of them; the consumer must see every
    /// value once, in order (acquire/release carry the slots' contents).
    func testCounterSurvivesTwoThreads() {
        let total: Int32 = 500_000
        let ring = SPSCRing(capacity: 97, slotSize: 4)
        defer { ring.deallocate() }
        let batches: [Int32] = [1, 5, 13, 40, 96]
        let producer = Thread {
            var next: Int32 = 0, choice = 0
            while next < total {
                let count = min(batches[choice % batches.count], total - next)
                choice += 1
                var span = ring.reserve(Int(count))
                while span == nil {
                    sched_yield()
                    span = ring.reserve(Int(count))
                }
                self.fill(span!, with: (0..<count).map { next + $0 })
                ring.publish(Int(count))
                next += count
            }
        }
        producer.start()
        var expected: Int32 = 0, mismatches = 0
        while expected < total {
            let span = ring.readable()
            if span.count == 0 { sched_yield(); continue }
            for value in contents(span) {
                if value != expected { mismatches += 1 }
                expected += 1
            }
            ring.release(span.count)
        }
        XCTAssertEqual(expected, total)
        XCTAssertEqual(mismatches, 0)
    }
}
