import HostCore

/// A live graph edit: a new `AudioGraph` with the same nodes — the same unit
/// objects, so their plugin instances and state carry over — and changed
/// connections, taps or bypass states. The running graph is never mutated:
/// the edit compiles into a new plan that replaces the old one at a block
/// boundary, or fails and changes nothing.
struct GraphRewrite {
    struct Connection {
        var from: PortReference
        var to: PortReference
        var gainDecibels: Double
        var location: SourceLocation?
    }

    struct Tap {
        var at: PortReference
        var file: String
        var location: SourceLocation?
    }

    var connections: [Connection]
    var taps: [Tap]
    /// Bypass state per plugin node, as it is now (live toggles included).
    var bypass: [String: Bool]

    init(of graph: AudioGraph, bypass: [String: Bool]) {
        connections = graph.connections.map {
            Connection(from: PortReference(node: $0.source, port: $0.sourcePort),
                       to: PortReference(node: $0.destination, port: $0.destinationPort),
                       gainDecibels: $0.gainDecibels, location: $0.location)
        }
        taps = graph.taps.map { Tap(at: PortReference(node: $0.node, port: $0.port), file: $0.file, location: $0.location) }
        self.bypass = bypass
    }

    /// `outputWidths` fixes outputs declared as wide as their input (command-line
    /// chains) at the width they have now: their JACK ports exist already.
    func apply(to graph: AudioGraph, outputWidths: [String: Int] = [:]) throws(PatchError) -> AudioGraph {
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
            }
        }
        for connection in connections {
            guard let source = result.node(named: connection.from.node) else { throw unknown(connection.from.node, result) }
            guard let destination = result.node(named: connection.to.node) else {
                throw unknown(connection.to.node, result)
            }
            try result.connect(source, connection.from.port, to: destination, connection.to.port,
                               gainDecibels: connection.gainDecibels, location: connection.location)
        }
        for tap in taps {
            guard let node = result.node(named: tap.at.node) else { throw unknown(tap.at.node, result) }
            try result.installTap(on: node, tap.at.port, file: tap.file, location: tap.location)
        }
        return result
    }

    private func unknown(_ name: String, _ graph: AudioGraph) -> PatchError {
        PatchError("there is no node named `\(name)`", suggestion: Suggestion.didYouMean(name, in: graph.nodes.map(\.name)))
    }
}
