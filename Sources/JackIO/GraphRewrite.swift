import HostCore

/// A live graph edit: a new `AudioGraph` with the same nodes — the same unit
/// objects, so their plugin instances and state carry over — and changed
/// connections, taps or bypass states. The running graph is never mutated:
/// the edit compiles into a new plan that replaces the old one at a block
/// boundary, or fails and changes nothing.
struct GraphRewrite {
    var connections: [ConnectionDeclaration]
    var taps: [TapDeclaration]
    /// Bypass state per plugin node; starts as the graph has it (the live
    /// session keeps live toggles in its graph, nowhere else).
    var bypass: [String: Bool] = [:]
    /// The graph being edited: its nodes (and units) are kept.
    private let graph: AudioGraph

    init(of graph: AudioGraph) {
        self.graph = graph
        connections = graph.connectionDeclarations
        taps = graph.tapDeclarations
        for node in graph.nodes {
            if case .unit(_, let bypassed) = node.kind { bypass[node.name] = bypassed }
        }
    }

    /// The edited graph. `outputWidths` fixes outputs declared as wide as
    /// their input (command-line chains) at the width they have now: their
    /// JACK ports exist already.
    func apply(outputWidths: [String: Int] = [:]) throws(GraphError) -> AudioGraph {
        let result = AudioGraph()
        for node in graph.nodes {
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
