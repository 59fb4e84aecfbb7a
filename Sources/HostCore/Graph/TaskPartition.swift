/// Cuts a program's ops into tasks that may run on different threads and
/// still give the serial program's bits.
///
/// The compiler marks where each node's ops begin; a node's ops stay
/// together (its bypass skips jump within them). Dependencies come from the
/// buffers the ops touch, in serial order: a task that reads or overwrites a
/// buffer waits for the last task that wrote it, and a task that overwrites
/// it also waits for the tasks that read it since. Everything else (delay
/// lines, kernel state) belongs to one node, so any order that respects
/// these edges runs every op on the same data as the serial order, and sums
/// stay in their fixed order because a sum's ops belong to the node it feeds.
///
/// A chain (a task whose only successor has no other predecessor) becomes
/// one task: only real branches are shared out, and a graph with none is a
/// single task that renders serially.
struct TaskPartition {
    /// Each task's op ranges, ascending; tasks in the order of their first op.
    private(set) var ranges: [[Range<Int>]] = []
    private(set) var successors: [[Int]] = []
    private(set) var predecessorCounts: [Int] = []
    /// The task each op belongs to.
    private(set) var taskOfOp: [Int]
    /// Per task, every task that finishes before it starts (transitively), as a bit set.
    private(set) var ancestors: [TaskSet] = []

    /// `nodeStarts`: the index of each node's first op, ascending. `reads` and
    /// `writes`: the buffers each op touches.
    init(opCount: Int, nodeStarts: [Int], reads: [[Int]], writes: [[Int]]) {
        taskOfOp = [Int](repeating: -1, count: opCount)
        // Each node's ops, dropping nodes with none (sources, outputs).
        let bounds = (nodeStarts.filter { $0 < opCount } + [opCount]).reduce(into: [Int]()) { starts, start in
            if starts.last != start { starts.append(start) }
        }
        let pieces = zip(bounds, bounds.dropFirst()).map { $0..<$1 }
        if opCount > 0 && bounds.first != 0 {
            preconditionFailure("ops before the first node")
        }
        var pieceOfOp = [Int](repeating: 0, count: opCount)
        for (piece, range) in pieces.enumerated() { for op in range { pieceOfOp[op] = piece } }

        // Edges between pieces, from buffer accesses in serial order.
        var edges = [Set<Int>](repeating: [], count: pieces.count)
        var lastWriter: [Int: Int] = [:]
        var readersSinceWrite: [Int: Set<Int>] = [:]
        for op in 0..<opCount {
            let piece = pieceOfOp[op]
            for buffer in reads[op] {
                if let writer = lastWriter[buffer], writer != piece { edges[writer].insert(piece) }
                readersSinceWrite[buffer, default: []].insert(piece)
            }
            for buffer in writes[op] {
                if let writer = lastWriter[buffer], writer != piece { edges[writer].insert(piece) }
                for reader in readersSinceWrite[buffer] ?? [] where reader != piece { edges[reader].insert(piece) }
                lastWriter[buffer] = piece
                readersSinceWrite[buffer] = []
            }
        }
        var predecessorSets = [Set<Int>](repeating: [], count: pieces.count)
        for (piece, successors) in edges.enumerated() { for successor in successors { predecessorSets[successor].insert(piece) } }

        // Chains merge: a piece joins its predecessor's task when it is that
        // predecessor's only successor and has no other predecessor.
        var taskOfPiece = [Int](repeating: -1, count: pieces.count)
        for piece in pieces.indices {
            if predecessorSets[piece].count == 1, let predecessor = predecessorSets[piece].first,
               edges[predecessor].count == 1 {
                taskOfPiece[piece] = taskOfPiece[predecessor]
                ranges[taskOfPiece[piece]].append(pieces[piece])
            } else {
                taskOfPiece[piece] = ranges.count
                ranges.append([pieces[piece]])
            }
        }
        var taskSuccessors = [Set<Int>](repeating: [], count: ranges.count)
        for (piece, successors) in edges.enumerated() {
            for successor in successors where taskOfPiece[successor] != taskOfPiece[piece] {
                taskSuccessors[taskOfPiece[piece]].insert(taskOfPiece[successor])
            }
        }
        successors = taskSuccessors.map { $0.sorted() }
        predecessorCounts = [Int](repeating: 0, count: ranges.count)
        for list in successors { for successor in list { predecessorCounts[successor] += 1 } }
        for op in 0..<opCount { taskOfOp[op] = taskOfPiece[pieceOfOp[op]] }

        // Edges only go forward (a task's first op comes after its
        // predecessors' first ops), so one pass in task order finds ancestors.
        ancestors = [TaskSet](repeating: TaskSet(count: ranges.count), count: ranges.count)
        for task in ranges.indices {
            for successor in successors[task] {
                precondition(successor > task, "task edges go forward")
                ancestors[successor].formUnion(ancestors[task])
                ancestors[successor].insert(task)
            }
        }
    }

    var taskCount: Int { ranges.count }

    /// How many tasks can run at once: the most tasks at one depth (the
    /// longest chain of predecessors before them), which share no path. 1
    /// means the tasks only ever run one after another.
    var parallelWidth: Int {
        var depth = [Int](repeating: 0, count: taskCount)
        for task in 0..<taskCount {  // edges go forward
            for successor in successors[task] { depth[successor] = max(depth[successor], depth[task] + 1) }
        }
        return Dictionary(grouping: depth, by: { $0 }).values.map(\.count).max() ?? 0
    }
}

/// A set of task indices as bits.
struct TaskSet: Equatable {
    private var words: [UInt64]

    init(count: Int) { words = [UInt64](repeating: 0, count: (count + 63) / 64) }

    func contains(_ task: Int) -> Bool { words[task / 64] & (1 << UInt64(task % 64)) != 0 }

    mutating func insert(_ task: Int) { words[task / 64] |= 1 << UInt64(task % 64) }

    mutating func formUnion(_ other: TaskSet) {
        for index in words.indices { words[index] |= other.words[index] }
    }

    /// Every member of `self` is in `other`.
    func isSubset(of other: TaskSet) -> Bool {
        zip(words, other.words).allSatisfy { $0 & ~$1 == 0 }
    }
}
