import HostCore

/// A setlist's spillover as a graph edit: the patch switched away from
/// keeps ringing. Its processing nodes that the new patch does not keep
/// (plugins, mixes, gains) stay in the graph under a name no patch can give
/// (`spill3.delay`: a patch's names have no `.`), the same unit objects, so
/// their instances and tails carry on; what fed them from the patch's
/// inputs and file sources is left out (they hear silence), and each of
/// their connections to a node the new graph has (an output, or a node
/// both patches share such as a master limiter) goes through a
/// `SpilloverFadeUnit` into that same port (unity, then linear to 0 over
/// the last half second of the spillover). Spills made before ring on as
/// they were (`carried`); `LiveSetlist` bounds their count by cutting the
/// oldest's fade short. `removed` takes a spill out once its fades ended.
struct SetlistSpill {
    /// The spill's number: each switch with a spillover makes the next.
    let generation: Int
    let seconds: Double

    static func prefix(_ generation: Int) -> String { "spill\(generation)." }

    /// Whether `name` is a spill's node (never a patch's: a patch's names have no `.`).
    static func isSpillNode(_ name: String) -> Bool { name.hasPrefix("spill") && name.contains(".") }

    /// `newGraph` (the new patch's graph, built from `running`) with the
    /// nodes `removed` from `running` spilling, and the spills before as
    /// they were. Nothing to spill: nil.
    func graph(_ newGraph: AudioGraph, running: AudioGraph, removed: [String]) throws(GraphError) -> AudioGraph? {
        let prefix = Self.prefix(generation)
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
        var connections: [ConnectionDeclaration] = []
        var fades = 0
        for connection in running.connectionDeclarations where !Self.isSpillNode(connection.from.node) {
            let from = connection.from.node, to = connection.to.node
            guard let source = spilled[from] else { continue }
            if let target = spilled[to] {
                connections.append(ConnectionDeclaration(from: PortReference(node: source, port: connection.from.port),
                                                         to: PortReference(node: target, port: connection.to.port),
                                                         gainDecibels: connection.gainDecibels))
            } else if newGraph.node(named: to) != nil {
                // Into a node the new patch keeps (an output, a shared master): faded, so it is not cut dead.
                fades += 1
                let fade = "\(prefix)fade\(fades)"
                nodes.append(GraphNode(name: fade, kind: .unit(SpilloverFadeUnit(seconds: seconds), bypass: false), location: nil))
                connections.append(ConnectionDeclaration(from: PortReference(node: source, port: connection.from.port),
                                                         to: PortReference(node: fade), gainDecibels: connection.gainDecibels))
                connections.append(ConnectionDeclaration(from: PortReference(node: fade), to: connection.to))
            }
        }
        let carried = Self.carried(running: running, into: newGraph, renamed: spilled)
        guard fades > 0 || !carried.nodes.isEmpty else { return nil }
        return try GraphRewrite(nodes: newGraph.nodes + carried.nodes + nodes,
                                connections: newGraph.connectionDeclarations + carried.connections + connections,
                                taps: newGraph.tapDeclarations).apply()
    }

    /// The spills `running` has, unchanged, with their connections to nodes
    /// `newGraph` has; one into a node that spills now (`renamed`) goes to
    /// its spilled name, so a tail fed into a shared node rings on there.
    static func carried(running: AudioGraph, into newGraph: AudioGraph, renamed: [String: String] = [:])
        -> (nodes: [GraphNode], connections: [ConnectionDeclaration]) {
        // A spill whose fades all played to 0 is silent: it goes in this edit (no click), which bounds their count.
        let prefixes = Set(running.nodes.compactMap { spillPrefix(of: $0.name) })
        let ended = prefixes.filter { prefix in
            let fades = running.nodes.filter { $0.name.hasPrefix(prefix) }.compactMap(fadeUnit)
            return !fades.isEmpty && fades.allSatisfy(\.hasEnded)
        }
        func live(_ name: String) -> Bool { spillPrefix(of: name).map { !ended.contains($0) } ?? false }
        let nodes = running.nodes.filter { live($0.name) }
        var connections: [ConnectionDeclaration] = []
        for connection in running.connectionDeclarations where live(connection.from.node) {
            let to = connection.to.node
            if live(to) || (!isSpillNode(to) && renamed[to] == nil && newGraph.node(named: to) != nil) {
                connections.append(connection)
            } else if let target = renamed[to] {
                connections.append(ConnectionDeclaration(from: connection.from,
                                                         to: PortReference(node: target, port: connection.to.port),
                                                         gainDecibels: connection.gainDecibels))
            }
        }
        return (nodes, connections)
    }

    /// `newGraph` with the spills of `running` carried over (`carried`), or
    /// nil when there are none: a reload, or a switch whose new spill does
    /// not compile, leaves ringing tails alone.
    static func keepingSpills(_ newGraph: AudioGraph, running: AudioGraph) throws(GraphError) -> AudioGraph? {
        let carried = carried(running: running, into: newGraph)
        guard !carried.nodes.isEmpty else { return nil }
        return try GraphRewrite(nodes: newGraph.nodes + carried.nodes,
                                connections: newGraph.connectionDeclarations + carried.connections,
                                taps: newGraph.tapDeclarations).apply()
    }

    /// `spill3.` for `spill3.delay`; nil for a patch's node.
    private static func spillPrefix(of name: String) -> String? {
        guard isSpillNode(name), let dot = name.firstIndex(of: ".") else { return nil }
        return String(name[...dot])
    }

    private static func fadeUnit(_ node: GraphNode) -> SpilloverFadeUnit? {
        guard case .unit(let unit, _) = node.kind else { return nil }
        return unit as? SpilloverFadeUnit
    }

    /// The fade units of spill `generation` in `graph`.
    static func fades(_ generation: Int, in graph: AudioGraph) -> [SpilloverFadeUnit] {
        let prefix = prefix(generation)
        return graph.nodes.filter { $0.name.hasPrefix(prefix) }.compactMap(fadeUnit)
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
