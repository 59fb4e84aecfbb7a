/// Node-level connections as integer indices, for finding cycles: one
/// search, and one message, for patch files and for graphs built in code.
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

    static func cycleError(_ cycle: (closing: Int, names: [String]), at location: SourceLocation?) -> PatchError {
        PatchError("cycle: \(cycle.names.joined(separator: " -> "))", at: location)
    }

    private func successors(usingFirst count: Int) -> [[Int]] {
        var successors = [[Int]](repeating: [], count: names.count)
        for edge in edges[..<count] { successors[edge.from].append(edge.to) }
        return successors
    }

    /// Kahn's algorithm: a graph is acyclic exactly when every node can be removed in topological order.
    func hasCycle(usingFirst count: Int) -> Bool {
        let successors = successors(usingFirst: count)
        var incoming = [Int](repeating: 0, count: names.count)
        for edge in edges[..<count] { incoming[edge.to] += 1 }
        var ready = incoming.indices.filter { incoming[$0] == 0 }
        var removed = 0
        while let node = ready.popLast() {
            removed += 1
            for next in successors[node] {
                incoming[next] -= 1
                if incoming[next] == 0 { ready.append(next) }
            }
        }
        return removed < names.count
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
