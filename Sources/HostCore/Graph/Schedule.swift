/// The order nodes render in: every node after all that feed it, otherwise in
/// the order they were added (so a plan is the same every time).
enum Schedule {
    static func order(of graph: AudioGraph) throws(PatchError) -> [Int] {
        let nodes = graph.nodes
        var indexByName: [String: Int] = [:]
        for (index, node) in nodes.enumerated() { indexByName[node.name] = index }
        var successors = [[Int]](repeating: [], count: nodes.count)
        var pending = [Int](repeating: 0, count: nodes.count)
        for connection in graph.connections {
            let from = indexByName[connection.source]!, to = indexByName[connection.destination]!
            successors[from].append(to)
            pending[to] += 1
        }
        var order: [Int] = []
        var ready = (0..<nodes.count).filter { pending[$0] == 0 }
        while let next = ready.min() {
            ready.removeAll { $0 == next }
            order.append(next)
            for successor in successors[next] {
                pending[successor] -= 1
                if pending[successor] == 0 { ready.append(successor) }
            }
        }
        if order.count < nodes.count {
            throw cycleError(graph, remaining: Set((0..<nodes.count).filter { pending[$0] > 0 }), indexByName)
        }
        return order
    }

    /// Names one cycle among the nodes left unscheduled, at the connection that closes it.
    private static func cycleError(_ graph: AudioGraph, remaining: Set<Int>,
                                   _ indexByName: [String: Int]) -> PatchError {
        let edges = graph.connections.filter {
            remaining.contains(indexByName[$0.source]!) && remaining.contains(indexByName[$0.destination]!)
        }
        var path: [String] = [edges[0].source]
        var closing = edges[0]
        while true {
            let current = path.last!
            guard let edge = edges.first(where: { $0.source == current }) else { break }
            closing = edge
            if let start = path.firstIndex(of: edge.destination) {
                path = Array(path[start...]) + [edge.destination]
                break
            }
            path.append(edge.destination)
        }
        return PatchError("the graph has a cycle: \(path.joined(separator: " -> "))", at: closing.location,
                          suggestion: "audio cannot feed back into itself; remove one of these connections")
    }
}
