import XCTest
@testable import HostCore

/// How ops are cut into tasks. Oracles: the dependencies follow from which
/// op reads and writes which buffer, worked out by hand for each case.
final class TaskPartitionTests: XCTestCase {
    /// Node k reads buffer k and writes buffer k + 1: a chain, one task.
    func testAChainIsOneTask() {
        let partition = TaskPartition(opCount: 3, nodeStarts: [0, 1, 2],
                                      reads: [[0], [1], [2]], writes: [[1], [2], [3]])
        XCTAssertEqual(partition.taskCount, 1)
        XCTAssertEqual(partition.ranges, [[0..<1, 1..<2, 2..<3]])
    }

    /// Four branches of two nodes each from one source buffer, summed by a
    /// fifth node: each branch is one task, the sum waits for all four.
    func testParallelBranchesAreTasksJoinedWhereTheyMeet() {
        var reads: [[Int]] = [], writes: [[Int]] = [], starts: [Int] = []
        // Emitted breadth first, as a topological order may: every first stage, then every second.
        for branch in 0..<4 { starts.append(reads.count); reads.append([0]); writes.append([10 + branch]) }
        for branch in 0..<4 { starts.append(reads.count); reads.append([10 + branch]); writes.append([20 + branch]) }
        starts.append(reads.count)
        reads.append([20]); writes.append([30])          // copy
        for branch in 1..<4 { reads.append([20 + branch, 30]); writes.append([30]) }  // adds
        let partition = TaskPartition(opCount: reads.count, nodeStarts: starts, reads: reads, writes: writes)
        XCTAssertEqual(partition.taskCount, 5)
        for branch in 0..<4 {
            XCTAssertEqual(partition.ranges[branch], [branch..<branch + 1, 4 + branch..<5 + branch])
            XCTAssertEqual(partition.successors[branch], [4])
            XCTAssertEqual(partition.predecessorCounts[branch], 0)
        }
        XCTAssertEqual(partition.predecessorCounts[4], 4)
        XCTAssertEqual(partition.ranges[4], [8..<12])
        XCTAssertEqual(partition.parallelWidth, 4)
    }

    /// A buffer read by two nodes and then overwritten by a third: the third
    /// waits for both readers, not only for the writer.
    func testOverwritingWaitsForEveryEarlierReader() {
        let partition = TaskPartition(opCount: 4, nodeStarts: [0, 1, 2, 3],
                                      reads: [[], [0], [0], [1, 2]], writes: [[0], [1], [2], [0]])
        // Node 0 writes 0; nodes 1 and 2 read it; node 3 reads their results and rewrites 0.
        XCTAssertEqual(partition.taskCount, 4)
        XCTAssertEqual(partition.successors[0], [1, 2, 3])
        XCTAssertEqual(partition.predecessorCounts[3], 3)
        XCTAssertTrue(partition.ancestors[3].contains(0))
        XCTAssertTrue(partition.ancestors[3].contains(1))
        XCTAssertFalse(partition.ancestors[1].contains(2))
        XCTAssertEqual(partition.parallelWidth, 2, "nodes 1 and 2 may run at once")
    }

    /// Nodes with no ops (sources, outputs) leave no task behind.
    func testNodesWithoutOpsAreDropped() {
        let partition = TaskPartition(opCount: 2, nodeStarts: [0, 0, 1, 2, 2],
                                      reads: [[0], [0]], writes: [[1], [2]])
        XCTAssertEqual(partition.taskCount, 2)
        XCTAssertEqual(partition.ranges, [[0..<1], [1..<2]])
        XCTAssertEqual(partition.successors, [[], []])
    }

    /// A send that returns to the bus (A → B, A → C, B → C): three tasks,
    /// but each waits for the one before: nothing runs at once.
    func testASendThatReturnsHasNothingToRunAtOnce() {
        let partition = TaskPartition(opCount: 4, nodeStarts: [0, 1, 2],
                                      reads: [[0], [1], [1], [2, 3]], writes: [[1], [2], [3], [3]])
        XCTAssertEqual(partition.taskCount, 3)
        XCTAssertEqual(partition.parallelWidth, 1)
    }
}
