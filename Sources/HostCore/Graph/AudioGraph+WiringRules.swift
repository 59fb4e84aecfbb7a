extension AudioGraph {
    /// What a node is to the wiring rules: all they need to know of it, so a
    /// patch file's wiring is checked before any of its units exists.
    enum WiringRole {
        /// Feeds the graph, takes nothing in: "an input", "a file player".
        case source(String)
        /// Takes audio out of the graph, feeds nothing.
        case output
        /// Takes audio in and gives audio out.
        case processor

        init(_ kind: GraphNodeKind) {
            switch kind {
            case .input: self = .source("an input")
            case .filePlayer: self = .source("a file player")
            case .midiInput: self = .source("a MIDI input")
            case .midiFile: self = .source("a MIDI file player")
            case .output, .midiOutput: self = .output
            case .mixer, .gain, .unit: self = .processor
            }
        }

        init(_ kind: NodeKind) {
            switch kind {
            case .input: self = .source("an input")
            case .file: self = .source("a file player")
            case .midiInput: self = .source("a MIDI input")
            case .midiFile: self = .source("a MIDI file player")
            case .output, .midiOutput: self = .output
            case .plugin, .mix, .gain: self = .processor
            }
        }
    }

    /// The wiring rules, in one place and one wording for graphs built in code
    /// (`connect`) and patch files (checked as they are read, before their
    /// units exist): no node feeds itself, signal flows out of sources and into
    /// outputs only, and there are no cycles.
    enum WiringRules {
        static func checkConnection(from source: String, _ sourceRole: WiringRole,
                                    to destination: String, _ destinationRole: WiringRole,
                                    location: SourceLocation?, sourceLocation: SourceLocation?,
                                    destinationLocation: SourceLocation?) throws(GraphError) {
            guard source != destination else {
                throw GraphError("node `\(source)` is connected to itself", at: location)
            }
            if case .output = sourceRole {
                throw GraphError("node `\(source)` is an output; it has nothing to feed `\(destination)`",
                                 at: sourceLocation ?? location)
            }
            if case .source(let what) = destinationRole {
                throw GraphError("node `\(destination)` is \(what); nothing can be connected into it",
                                 at: destinationLocation ?? location)
            }
        }

        /// Every connection of a declared wiring, then cycles. Node names are
        /// known to exist.
        static func check(nodes: [(name: String, role: WiringRole)],
                          connections: [ConnectionDeclaration]) throws(GraphError) {
            var roles: [String: WiringRole] = [:]
            for node in nodes { roles[node.name] = node.role }
            for connection in connections {
                try checkConnection(from: connection.from.node, roles[connection.from.node]!,
                                    to: connection.to.node, roles[connection.to.node]!,
                                    location: connection.location, sourceLocation: connection.from.location,
                                    destinationLocation: connection.to.location)
            }
            let graph = ConnectionGraph(nodes: nodes.map(\.name),
                                        connections: connections.map { ($0.from.node, $0.to.node) })
            if let cycle = graph.firstCycle() {
                throw ConnectionGraph.cycleError(cycle, at: connections[cycle.closing].location)
            }
        }
    }
}
