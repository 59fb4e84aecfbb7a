import Synchronization

/// One task of a program: ops that run in order on one thread, as part of a
/// block that worker threads share (`RenderWorkers`). Its ops are one or more
/// ranges of the program's op list (a chain of nodes merged into one task);
/// it may start once `predecessorCount` tasks before it are done, and its
/// end counts down each of its successors.
package struct RenderTask {
    package var firstRange: Int32
    package var rangeCount: Int32
    package var firstSuccessor: Int32
    package var successorCount: Int32
    package var predecessorCount: Int32

    package init(firstRange: Int32, rangeCount: Int32, firstSuccessor: Int32, successorCount: Int32,
                 predecessorCount: Int32) {
        self.firstRange = firstRange
        self.rangeCount = rangeCount
        self.firstSuccessor = firstSuccessor
        self.successorCount = successorCount
        self.predecessorCount = predecessorCount
    }
}

/// Ops `start..<end` of a program.
package struct OpRange: Equatable {
    package var start: Int32
    package var end: Int32

    package init(start: Int32, end: Int32) {
        self.start = start
        self.end = end
    }
}

/// A program's tasks and the counters a block of them uses, in memory the
/// plan owns (a handle of pointers, like the rest of `RenderProgram`). With
/// fewer than two tasks there is nothing to share out: the program renders
/// serially.
package struct RenderTaskLayout {
    package let tasks: UnsafeBufferPointer<RenderTask>
    package let ranges: UnsafeBufferPointer<OpRange>
    /// Successor task indices, `tasks[i].firstSuccessor` on.
    package let successors: UnsafeBufferPointer<Int32>
    /// Per task, predecessors not yet done in the current block.
    package let pending: UnsafeMutablePointer<Atomic<Int32>>
    /// Per task, 1 once a thread has taken it in the current block.
    package let taken: UnsafeMutablePointer<Atomic<Int32>>
    /// How many tasks can run at once (see `TaskPartition.parallelWidth`).
    package let parallelWidth: Int

    /// Off the realtime thread: copies the description into memory of its
    /// own; `deallocate()` frees it.
    package static func allocate(tasks: [RenderTask], ranges: [OpRange], successors: [Int32],
                                 parallelWidth: Int) -> RenderTaskLayout {
        func copy<Element>(_ elements: [Element]) -> UnsafeBufferPointer<Element> {
            let memory = UnsafeMutableBufferPointer<Element>.allocate(capacity: max(elements.count, 1))
            _ = memory.initialize(from: elements)
            return UnsafeBufferPointer(rebasing: UnsafeBufferPointer(memory)[0..<elements.count])
        }
        let count = max(tasks.count, 1)
        let pending = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: count)
        let taken = UnsafeMutablePointer<Atomic<Int32>>.allocate(capacity: count)
        for index in 0..<count {
            (pending + index).initialize(to: Atomic(0))
            (taken + index).initialize(to: Atomic(0))
        }
        return RenderTaskLayout(tasks: copy(tasks), ranges: copy(ranges), successors: copy(successors),
                                pending: pending, taken: taken, parallelWidth: parallelWidth)
    }

    package func deallocate() {
        let count = max(tasks.count, 1)
        pending.deinitialize(count: count)
        taken.deinitialize(count: count)
        pending.deallocate()
        taken.deallocate()
        UnsafeMutableRawPointer(mutating: tasks.baseAddress)?.deallocate()
        UnsafeMutableRawPointer(mutating: ranges.baseAddress)?.deallocate()
        UnsafeMutableRawPointer(mutating: successors.baseAddress)?.deallocate()
    }
}
