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
            let cycle = ConnectionGraph(nodes: nodes.map(\.name),
                                        connections: graph.connections.map { ($0.source, $0.destination) }).firstCycle()!
            throw ConnectionGraph.cycleError(cycle, at: graph.connections[cycle.closing].location)
        }
        return order
    }
}
