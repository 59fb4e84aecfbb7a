import Foundation
import JackIO
import XCTest

final class LiveCommandQueueTests: XCTestCase {
    func testCapacityRoundsUpToAPowerOfTwo() {
        XCTAssertEqual(LiveCommandQueue(capacity: 5).capacity, 8)
        XCTAssertEqual(LiveCommandQueue(capacity: 8).capacity, 8)
        XCTAssertEqual(LiveCommandQueue(capacity: 0).capacity, 1)
    }

    func testAppliesInOrderAndRefusesWhenFull() {
        let queue = LiveCommandQueue(capacity: 4)
        let motions = OwnedValueMotions()
        let target = UnsafeMutablePointer<Float>.allocate(capacity: 1)
        defer { target.deallocate() }
        target.pointee = 0
        for value in 1...4 { XCTAssertTrue(queue.push(.setFloat(target, Float(value)))) }
        XCTAssertFalse(queue.push(.setFloat(target, 99)), "a fifth command does not fit in 4 slots")
        XCTAssertEqual(target.pointee, 0, "nothing is applied before the consumer runs")
        XCTAssertEqual(queue.applyPending(motions.view), 4)
        XCTAssertEqual(target.pointee, 4, "the last command pushed wins, so they ran in order")
        XCTAssertEqual(queue.applyPending(motions.view), 0)
        XCTAssertTrue(queue.push(.setFloat(target, 5)), "applying frees the slots")
    }

    func testFlagsAreStored() {
        let queue = LiveCommandQueue(capacity: 2)
        let motions = OwnedValueMotions()
        let flag = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        defer { flag.deallocate() }
        flag.pointee = 0
        XCTAssertTrue(queue.push(.setFlag(flag, 1)))
        XCTAssertEqual(queue.applyPending(motions.view), 1)
        XCTAssertEqual(flag.pointee, 1)
    }

    /// One producer thread and one consumer thread through an 8-slot queue
    /// (it wraps thousands of times): every command arrives exactly once,
    /// in order. Command i writes i into cell i; the consumer checks after
    /// each batch that the cells filled so far form a prefix.
    func testOneProducerOneConsumerLoseNothing() {
        let count = 20_000
        let box = QueueBox(capacity: 8, cells: count)
        let cells = box.cells
        let producer = Thread {
            for index in 0..<count {
                while !box.queue.push(.setFloat(box.cells + index, Float(index))) { sched_yield() }
            }
        }
        producer.start()
        var received = 0
        var outOfOrder = 0
        let deadline = Date().addingTimeInterval(30)
        while received < count && Date() < deadline {
            let batch = box.queue.applyPending(box.motions.view)
            for index in received..<(received + batch) where cells[index] != Float(index) { outOfOrder += 1 }
            received += batch
        }
        XCTAssertEqual(received, count)
        XCTAssertEqual(outOfOrder, 0)
    }
}

/// Lets two threads share one (noncopyable) queue and the cells it writes.
private final class QueueBox: @unchecked Sendable {
    let queue: LiveCommandQueue
    let motions = OwnedValueMotions()
    let cells: UnsafeMutablePointer<Float>
    init(capacity: Int, cells count: Int) {
        queue = LiveCommandQueue(capacity: capacity)
        cells = .allocate(capacity: count)
        cells.initialize(repeating: -1, count: count)
    }
    deinit { cells.deallocate() }
}
