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

    private func checkCycles() throws(PatchError) {
        let graph = ConnectionGraph(nodes: patch.nodes.map(\.name),
                                    connections: patch.connections.map { ($0.from.node, $0.to.node) })
        if let cycle = graph.firstCycle() {
            throw ConnectionGraph.cycleError(cycle, at: patch.connections[cycle.closing].location)
        }
    }
}
