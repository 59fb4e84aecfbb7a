/// A graph edit: a new `AudioGraph` from nodes that exist already — the same
/// unit objects, so their plugin instances and state carry over — with
/// changed connections, taps or bypass states. A live edit keeps a graph's
/// nodes; a `--watch` reload gives the kept nodes and the ones it adds. The
/// running graph is never mutated: the edit compiles into a new plan that
/// replaces the old one at a block boundary, or fails and changes nothing.
package struct GraphRewrite {
    package var connections: [ConnectionDeclaration]
    package var taps: [TapDeclaration]
    /// Bypass state per plugin node; starts as the nodes have it (the live
    /// session keeps live toggles in its graph, nowhere else).
    package var bypass: [String: Bool] = [:]
    /// The nodes (and units) the edited graph is made of, in order.
    private let nodes: [GraphNode]

    /// An edit of `graph`: its nodes, connections and taps.
    package init(of graph: AudioGraph) {
        self.init(nodes: graph.nodes, connections: graph.connectionDeclarations, taps: graph.tapDeclarations)
    }

    /// A graph of `nodes`, wired by `connections` and `taps` (paths as they are to be written).
    package init(nodes: [GraphNode], connections: [ConnectionDeclaration], taps: [TapDeclaration]) {
        self.nodes = nodes
        self.connections = connections
        self.taps = taps
        for node in nodes {
            if case .unit(_, let bypassed) = node.kind { bypass[node.name] = bypassed }
        }
    }

    /// The edited graph. `outputWidths` fixes outputs declared as wide as
    /// their input (command-line chains) at the width they have now: their
    /// JACK ports exist already.
    package func apply(outputWidths: [String: Int] = [:]) throws(GraphError) -> AudioGraph {
        let result = AudioGraph()
        for node in nodes {
            switch node.kind {
            case .input(let channels, let ports):
                try result.addInput(node.name, channels: channels, ports: ports, location: node.location)
            case .output(let channels, let ports):
                let width = channels == EndpointPorts.asWideAsInput ? outputWidths[node.name] ?? channels : channels
                try result.addOutput(node.name, channels: width, ports: ports, location: node.location)
            case .filePlayer(let file):
                try result.addFilePlayer(node.name, file: file, location: node.location)
            case .mixer(let channels):
                try result.addMixer(node.name, channels: channels, location: node.location)
            case .gain(let decibels):
                try result.addGain(node.name, decibels: decibels, location: node.location)
            case .unit(let unit, let bypassed):
                try result.addUnit(node.name, unit, bypass: bypass[node.name] ?? bypassed, location: node.location)
            case .midiInput(let ports):
                try result.addMIDIInput(node.name, ports: ports, location: node.location)
            case .midiFile(let file):
                try result.addMIDIFile(node.name, file: file, location: node.location)
            case .midiOutput(let ports):
                try result.addMIDIOutput(node.name, ports: ports, location: node.location)
            }
        }
        try result.wire(connections, taps: taps)
        return result
    }
}
