/// Node-level connections as integer indices, for ordering nodes and
/// finding cycles: one sort, one search and one message, for patch files
/// and for graphs built in code.
struct ConnectionGraph {
    var names: [String] = []
    var edges: [(from: Int, to: Int)] = []

    /// `connections` name nodes of `nodes`, in declaration order.
    init(nodes: [String], connections: [(from: String, to: String)]) {
        var index: [String: Int] = [:]
        for name in nodes {
            index[name] = names.count
            names.append(name)
        }
        edges = connections.map { (index[$0.from]!, index[$0.to]!) }
    }

    /// The first connection, in declaration order, that closes a cycle, and
    /// the cycle's node names (first name repeated last). Costs
    /// O((nodes + connections) · log connections), so a big patch stays cheap.
    func firstCycle() -> (closing: Int, names: [String])? {
        guard hasCycle(usingFirst: edges.count) else { return nil }
        // The smallest prefix of connections that has a cycle: its last connection closes it.
        var acyclic = 0, cyclic = edges.count
        while cyclic - acyclic > 1 {
            let middle = (acyclic + cyclic) / 2
            if hasCycle(usingFirst: middle) { cyclic = middle } else { acyclic = middle }
        }
        let closing = edges[cyclic - 1]
        let path = path(from: closing.to, to: closing.from, usingFirst: cyclic - 1) ?? [closing.to, closing.from]
        return (cyclic - 1, (path + [closing.to]).map { names[$0] })
    }

    static func cycleError(_ cycle: (closing: Int, names: [String]), at location: SourceLocation?) -> GraphError {
        GraphError("cycle: \(cycle.names.joined(separator: " -> "))", at: location)
    }

    private func successors(usingFirst count: Int) -> [[Int]] {
        var successors = [[Int]](repeating: [], count: names.count)
        for edge in edges[..<count] { successors[edge.from].append(edge.to) }
        return successors
    }

    /// Kahn's algorithm: a graph is acyclic exactly when every node can be removed in topological order.
    func hasCycle(usingFirst count: Int) -> Bool {
        topologicalOrder(usingFirst: count).count < names.count
    }

    /// Node indices, each after every node that feeds it and otherwise in
    /// index order (the order nodes were declared, so a schedule is the same
    /// every time), using the first `count` connections. Kahn's algorithm,
    /// taking the smallest ready node first; a cycle leaves its nodes (and
    /// what they feed) out. O((nodes + connections) · log nodes).
    func topologicalOrder(usingFirst count: Int? = nil) -> [Int] {
        let count = count ?? edges.count
        let successors = successors(usingFirst: count)
        var incoming = [Int](repeating: 0, count: names.count)
        for edge in edges[..<count] { incoming[edge.to] += 1 }
        var ready = MinimumHeap(incoming.indices.filter { incoming[$0] == 0 })
        var order: [Int] = []
        while let node = ready.popMinimum() {
            order.append(node)
            for next in successors[node] {
                incoming[next] -= 1
                if incoming[next] == 0 { ready.insert(next) }
            }
        }
        return order
    }

    /// A shortest path from `start` to `goal` (both included), breadth first, or nil.
    func path(from start: Int, to goal: Int, usingFirst count: Int) -> [Int]? {
        let successors = successors(usingFirst: count)
        var cameFrom = [Int?](repeating: nil, count: names.count)
        cameFrom[start] = start
        var queue = [start]
        var head = 0
        while head < queue.count {
            let current = queue[head]
            head += 1
            if current == goal {
                var path = [goal]
                while path.last != start { path.append(cameFrom[path.last!]!) }
                return path.reversed()
            }
            for next in successors[current] where cameFrom[next] == nil {
                cameFrom[next] = current
                queue.append(next)
            }
        }
        return nil
    }
}

/// The ready nodes of a topological sort, smallest first: a binary heap.
private struct MinimumHeap {
    private var items: [Int] = []

    init(_ values: [Int]) {
        for value in values { insert(value) }
    }

    mutating func insert(_ value: Int) {
        items.append(value)
        var child = items.count - 1
        while child > 0, items[(child - 1) / 2] > items[child] {
            items.swapAt(child, (child - 1) / 2)
            child = (child - 1) / 2
        }
    }

    mutating func popMinimum() -> Int? {
        guard !items.isEmpty else { return nil }
        items.swapAt(0, items.count - 1)
        let minimum = items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, items[left] < items[smallest] { smallest = left }
            if right < items.count, items[right] < items[smallest] { smallest = right }
            guard smallest != parent else { return minimum }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
