/// One MIDI stream into a MIDI input port: a source node's MIDI output port.
struct MIDIFeed: Equatable {
    var sourceNode: Int
    var sourcePort: Int
}

/// The graph's connections split by what they carry, MIDI or audio, and
/// the MIDI ones resolved to ports. A connection carries MIDI when its
/// source gives only MIDI (a MIDI input or file, a plugin with MIDI outputs
/// and no audio ones), its destination is a MIDI output, or either end
/// names a MIDI port by symbol; everything else is audio, for
/// `ChannelResolver`. MIDI into something that takes none is an error at
/// the connection's place.
struct MIDIWiring {
    /// The connections that carry audio.
    let audioConnections: [GraphConnection]
    /// By node index, then MIDI input port: the feeds merged into it.
    let inputs: [[[MIDIFeed]]]
    /// By node index: how many MIDI outputs it has.
    let outputCounts: [Int]

    init(_ graph: AudioGraph) throws(GraphError) {
        var indexByName: [String: Int] = [:]
        for (position, node) in graph.nodes.enumerated() { indexByName[node.name] = position }
        var audio: [GraphConnection] = []
        var inputs = graph.nodes.map { [[MIDIFeed]](repeating: [], count: Self.inputNames(of: $0).count) }
        for connection in graph.connections {
            let sourceIndex = indexByName[connection.source]!, destinationIndex = indexByName[connection.destination]!
            let source = graph.nodes[sourceIndex], destination = graph.nodes[destinationIndex]
            guard Self.carriesMIDI(connection, from: source, to: destination) else {
                audio.append(connection)
                continue
            }
            let outputs = Self.outputNames(of: source)
            guard !outputs.isEmpty else {
                throw GraphError("`\(destination.name)` takes MIDI, but `\(source.name)` gives none", at: connection.sourceLocation,
                                 suggestion: "feed it from a `midi-input`, a `midi-file` or a plugin's MIDI output")
            }
            let names = Self.inputNames(of: destination)
            guard !names.isEmpty else {
                throw GraphError("`\(source.name)` sends MIDI, but `\(destination.name)` \(Self.describe(destination)) has no MIDI input",
                                 at: connection.destinationLocation,
                                 suggestion: "MIDI goes into a plugin that takes MIDI (an instrument, a MIDI filter) or a `midi-output`")
            }
            let sourcePort = try Self.port(connection.sourcePort, of: source, names: outputs, direction: "output",
                                           at: connection.sourceLocation)
            let destinationPort = try Self.port(connection.destinationPort, of: destination, names: names, direction: "input",
                                                at: connection.destinationLocation)
            inputs[destinationIndex][destinationPort].append(MIDIFeed(sourceNode: sourceIndex, sourcePort: sourcePort))
        }
        audioConnections = audio
        self.inputs = inputs
        outputCounts = graph.nodes.map { Self.outputNames(of: $0).count }
    }

    /// The MIDI input ports of a node, by name (a plugin's port symbols).
    static func inputNames(of node: GraphNode) -> [String] {
        switch node.kind {
        case .unit(let unit, _): return unit.midiInputs
        case .midiOutput: return ["midi"]
        default: return []
        }
    }

    static func outputNames(of node: GraphNode) -> [String] {
        switch node.kind {
        case .unit(let unit, _): return unit.midiOutputs
        case .midiInput, .midiFile: return ["midi"]
        default: return []
        }
    }

    static func carriesMIDI(_ connection: GraphConnection, from source: GraphNode, to destination: GraphNode) -> Bool {
        switch source.kind {
        case .midiInput, .midiFile: return true
        default: break
        }
        if case .midiOutput = destination.kind { return true }
        if case .symbol(let symbol) = connection.sourcePort, outputNames(of: source).contains(symbol) { return true }
        if case .symbol(let symbol) = connection.destinationPort, inputNames(of: destination).contains(symbol) { return true }
        if case .unit(let unit, _) = source.kind, unit.outputPorts.isEmpty, !unit.midiOutputs.isEmpty { return true }
        return false
    }

    /// What can be told of MIDI wiring before any plugin is loaded (the
    /// patch as read): MIDI from a MIDI source into a built-in audio node,
    /// and audio from a built-in node into a MIDI output. The same words
    /// as the graph's check, which covers plugins once they are loaded.
    static func checkDeclared(nodes: [NodeDeclaration], connections: [ConnectionDeclaration]) throws(GraphError) {
        var kinds: [String: NodeKind] = [:]
        for node in nodes { kinds[node.name] = node.kind }
        for connection in connections {
            guard let source = kinds[connection.from.node], let destination = kinds[connection.to.node] else { continue }
            let what: String?
            switch destination {
            case .gain: what = "(a gain stage)"
            case .mix: what = "(a mix bus)"
            case .output: what = "(an audio output)"
            default: what = nil
            }
            if source.isMIDISource, let what {
                throw GraphError("`\(connection.from.node)` sends MIDI, but `\(connection.to.node)` \(what) has no MIDI input",
                                 at: connection.to.location ?? connection.location,
                                 suggestion: "MIDI goes into a plugin that takes MIDI (an instrument, a MIDI filter) or a `midi-output`")
            }
            switch source {
            case .input, .file, .mix, .gain:
                if destination.isMIDIOutput {
                    throw GraphError("`\(connection.to.node)` takes MIDI, but `\(connection.from.node)` gives none",
                                     at: connection.from.location ?? connection.location,
                                     suggestion: "feed it from a `midi-input`, a `midi-file` or a plugin's MIDI output")
                }
            default:
                break
            }
        }
    }

    private static func describe(_ node: GraphNode) -> String {
        switch node.kind {
        case .unit(let unit, _): return "(\(unit.displayName))"
        case .output: return "(an audio output)"
        case .mixer: return "(a mix bus)"
        case .gain: return "(a gain stage)"
        default: return ""
        }
    }

    /// Which MIDI port a selector names: the first for the whole node, by
    /// number from 1, or by a plugin's port symbol.
    private static func port(_ selector: PortSelector, of node: GraphNode, names: [String], direction: String,
                             at location: SourceLocation?) throws(GraphError) -> Int {
        switch selector {
        case .all:
            return 0
        case .channel(let number):
            guard number >= 1 && number <= names.count else {
                throw GraphError("`\(node.name)` has \(names.count) MIDI \(direction)\(names.count == 1 ? "" : "s"); `\(node.name):\(number)` does not exist",
                                 at: location)
            }
            return number - 1
        case .symbol(let symbol):
            guard let position = names.firstIndex(of: symbol) else {
                throw GraphError("`\(node.name)` has no MIDI \(direction) `\(symbol)`; its MIDI \(direction)s are "
                                 + names.map { "`\($0)`" }.joined(separator: ", "),
                                 at: location, suggestion: Suggestion.didYouMean(symbol, in: names))
            }
            return position
        }
    }
}

extension GraphNodeKind {
    var isUnit: Bool {
        if case .unit = self { return true }
        return false
    }
}
