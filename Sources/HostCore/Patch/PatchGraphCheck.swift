/// Checks of the declared wiring that need only node kinds: self-connections,
/// signal direction (nothing flows into a source or out of an output) and
/// cycles. Node names are already known to exist.
struct PatchGraphCheck {
    let patch: Patch

    func run() throws(PatchError) {
        var kinds: [String: NodeKind] = [:]
        for node in patch.nodes { kinds[node.name] = node.kind }
        for connection in patch.connections {
            let from = connection.from.node, to = connection.to.node
            if from == to {
                throw PatchError("node `\(from)` is connected to itself", at: connection.location)
            }
            if case .output = kinds[from] {
                throw PatchError("node `\(from)` is an output; it has nothing to feed `\(to)`", at: connection.from.location)
            }
            switch kinds[to] {
            case .input:
                throw PatchError("node `\(to)` is an input; nothing can be connected into it", at: connection.to.location)
            case .file:
                throw PatchError("node `\(to)` is a file player; nothing can be connected into it", at: connection.to.location)
            default:
                break
            }
        }
        try checkCycles()
    }

    /// Reports the first connection, in file order, that closes a cycle, naming the cycle.
    /// Costs O((nodes + connections) · log connections), so a big patch stays cheap.
    private func checkCycles() throws(PatchError) {
        let graph = IndexedGraph(patch)
        guard graph.hasCycle(usingFirst: graph.edges.count) else { return }
        // The smallest prefix of connections that has a cycle: its last connection closes it.
        var acyclic = 0, cyclic = graph.edges.count
        while cyclic - acyclic > 1 {
            let middle = (acyclic + cyclic) / 2
            if graph.hasCycle(usingFirst: middle) { cyclic = middle } else { acyclic = middle }
        }
        let closing = graph.edges[cyclic - 1]
        let path = graph.path(from: closing.to, to: closing.from, usingFirst: cyclic - 1) ?? [closing.to, closing.from]
        let cycle = (path + [closing.to]).map { graph.names[$0] }.joined(separator: " -> ")
        throw PatchError("cycle: \(cycle)", at: patch.connections[cyclic - 1].location)
    }
}

/// Node-level connections as integer indices, for the cycle search.
private struct IndexedGraph {
    var names: [String] = []
    var edges: [(from: Int, to: Int)] = []

    init(_ patch: Patch) {
        var index: [String: Int] = [:]
        for node in patch.nodes {
            index[node.name] = names.count
            names.append(node.name)
        }
        edges = patch.connections.map { (index[$0.from.node]!, index[$0.to.node]!) }
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
