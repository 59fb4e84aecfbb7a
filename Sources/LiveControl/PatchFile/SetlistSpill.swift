import HostCore

/// A setlist's spillover as a graph edit: the patch switched away from
/// keeps ringing. Its processing nodes that the new patch does not keep
/// (plugins, mixes, gains) stay in the graph under a name no patch can give
/// (`spill3.delay`: a patch's names have no `.`), the same unit objects, so
/// their instances and tails carry on; what fed them from the patch's
/// inputs and file sources is left out (they hear silence), and each of
/// their connections to an output goes through a `SpilloverFadeUnit`
/// (unity, then linear to 0 over the last half second of the spillover).
/// Bounded: the one spill before this one (if still ringing) is kept as it
/// is; older ones are dropped at once. `removed` takes a spill out again.
struct SetlistSpill {
    /// The spill's number: each switch with a spillover makes the next.
    let generation: Int
    let seconds: Double

    static func prefix(_ generation: Int) -> String { "spill\(generation)." }

    /// Whether `name` is a spill's node (never a patch's: a patch's names have no `.`).
    static func isSpillNode(_ name: String) -> Bool { name.hasPrefix("spill") && name.contains(".") }

    /// `newGraph` (the new patch's graph, built from `running`) with the
    /// nodes `removed` from `running` spilling, and the previous spill's
    /// nodes as they were. Nothing to spill: nil.
    func graph(_ newGraph: AudioGraph, running: AudioGraph, removed: [String]) throws(GraphError) -> AudioGraph? {
        let prefix = Self.prefix(generation)
        let previous = Self.prefix(generation - 1)
        var spilled: [String: String] = [:]
        var nodes: [GraphNode] = []
        for node in running.nodes where removed.contains(node.name) && !Self.isSpillNode(node.name) {
            switch node.kind {
            case .unit, .mixer, .gain:
                spilled[node.name] = prefix + node.name
                nodes.append(GraphNode(name: prefix + node.name, kind: node.kind, location: nil))
            default:
                continue
            }
        }
        let outputs = Set(newGraph.nodes.compactMap { node -> String? in
            if case .output = node.kind { return node.name } else { return nil }
        })
        var connections: [ConnectionDeclaration] = []
        var fades = 0
        for connection in running.connectionDeclarations {
            let from = connection.from.node, to = connection.to.node
            if from.hasPrefix(previous) && (to.hasPrefix(previous) || outputs.contains(to)) {
                connections.append(connection)  // the spill before this one, as it was
            } else if let source = spilled[from], let target = spilled[to] {
                connections.append(ConnectionDeclaration(from: PortReference(node: source, port: connection.from.port),
                                                         to: PortReference(node: target, port: connection.to.port),
                                                         gainDecibels: connection.gainDecibels))
            } else if let source = spilled[from], outputs.contains(to) {
                fades += 1
                let fade = "\(prefix)fade\(fades)"
                nodes.append(GraphNode(name: fade, kind: .unit(SpilloverFadeUnit(seconds: seconds), bypass: false), location: nil))
                connections.append(ConnectionDeclaration(from: PortReference(node: source, port: connection.from.port),
                                                         to: PortReference(node: fade), gainDecibels: connection.gainDecibels))
                connections.append(ConnectionDeclaration(from: PortReference(node: fade), to: connection.to))
            }
        }
        let kept = running.nodes.filter { $0.name.hasPrefix(previous) }
        guard fades > 0 || !kept.isEmpty else { return nil }
        return try GraphRewrite(nodes: newGraph.nodes + kept + nodes,
                                connections: newGraph.connectionDeclarations + connections,
                                taps: newGraph.tapDeclarations).apply()
    }

    /// `running` without the nodes of spill `generation` (and their connections), or nil when it has none.
    static func removed(_ generation: Int, from running: AudioGraph) throws(GraphError) -> AudioGraph? {
        let prefix = prefix(generation)
        guard running.nodes.contains(where: { $0.name.hasPrefix(prefix) }) else { return nil }
        return try GraphRewrite(nodes: running.nodes.filter { !$0.name.hasPrefix(prefix) },
                                connections: running.connectionDeclarations.filter {
                                    !$0.from.node.hasPrefix(prefix) && !$0.to.node.hasPrefix(prefix)
                                },
                                taps: running.tapDeclarations).apply()
    }
}
