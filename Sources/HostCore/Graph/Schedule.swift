/// The order nodes render in: every node after all that feed it, otherwise in
/// the order they were added (so a plan is the same every time).
enum Schedule {
    static func order(of graph: AudioGraph) throws(GraphError) -> [Int] {
        let connections = ConnectionGraph(nodes: graph.nodes.map(\.name),
                                          connections: graph.connections.map { ($0.source, $0.destination) })
        let order = connections.topologicalOrder()
        if order.count < graph.nodes.count, let cycle = connections.firstCycle() {
            throw ConnectionGraph.cycleError(cycle, at: graph.connections[cycle.closing].location)
        }
        return order
    }
}
