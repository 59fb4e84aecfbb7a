/// A graph of units, built in code or loaded from a patch: the Linux
/// counterpart of AVAudioEngine's attach/connect/installTap. `compile` turns
/// it into a `RenderPlan` that a driver renders block by block.
///
/// ```swift
/// let graph = AudioGraph()
/// let input = try graph.addInput("in", channels: 2)
/// let drive = try graph.addUnit("drive", try provider.makeUnit("mda/Overdrive"))
/// let out = try graph.addOutput("out", channels: 2)
/// try graph.connect(input, to: drive)
/// try graph.connect(drive, to: out)
/// try graph.installTap(on: drive, file: "drive.flac")
/// let plan = try graph.compile(format: RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline))
/// ```
public final class AudioGraph {
    /// Nodes in the order they were added (the compiler keeps that order
    /// where the wiring allows, so plans are deterministic).
    public private(set) var nodes: [GraphNode] = []
    public private(set) var connections: [GraphConnection] = []
    /// Each connection's index by its ends as written (`a:1 -> b`), so a
    /// repeated one is found without a scan (a patch may have thousands).
    private var connectionIndex: [String: Int] = [:]
    public private(set) var taps: [GraphTap] = []
    /// The patch's `tempo:` and `meter:`, for a render of this graph to tell
    /// plugins that take the host's time (live, `LiveSession.Options.tempo`).
    package var tempo = Tempo()

    public init() {}

    // MARK: Nodes

    /// A live input: JACK ports when live, a file (`-i`) offline.
    @discardableResult
    public func addInput(_ name: String, channels: Int, ports: [String] = [],
                         location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .input(channels: channels, ports: ports), location: location))
    }

    /// An output: JACK ports when live, a file (`-o`) offline. `channels`
    /// 0 (`EndpointPorts.asWideAsInput`): as wide as what feeds it.
    @discardableResult
    public func addOutput(_ name: String, channels: Int, ports: [String] = [],
                          location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .output(channels: channels, ports: ports), location: location))
    }

    /// A file played on the timeline from `start` seconds with a gain.
    @discardableResult
    public func addFilePlayer(_ name: String, file: FilePlayerSource,
                              location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .filePlayer(file), location: location))
    }

    /// A summing bus of fixed width.
    @discardableResult
    public func addMixer(_ name: String, channels: Int, location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .mixer(channels: channels), location: location))
    }

    /// A gain stage as wide as its input.
    @discardableResult
    public func addGain(_ name: String, decibels: Double, location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .gain(decibels: decibels), location: location))
    }

    /// Puts `unit` in place of the one node `name` plays (a `StandInUnit`
    /// for a plugin left out before it was made), keeping its bypass,
    /// wiring and taps, which name it. Nothing happens for any other node.
    package func replaceUnit(of name: String, with unit: any ProcessingUnit) {
        guard let index = nodes.firstIndex(where: { $0.name == name }),
              case .unit(_, let bypassed) = nodes[index].kind else { return }
        nodes[index] = GraphNode(name: name, kind: .unit(unit, bypass: bypassed), location: nodes[index].location)
    }

    /// A processing unit (an LV2 plugin).
    @discardableResult
    public func addUnit(_ name: String, _ unit: any ProcessingUnit, bypass: Bool = false,
                        location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .unit(unit, bypass: bypass), location: location))
    }

    /// A MIDI source: a JACK MIDI input when live, a MIDI file (`-i`) or nothing offline.
    @discardableResult
    package func addMIDIInput(_ name: String, ports: [String] = [],
                              location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .midiInput(ports: ports), location: location))
    }

    /// A MIDI file played on the timeline.
    @discardableResult
    package func addMIDIFile(_ name: String, file: MIDIFileSource,
                             location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .midiFile(file), location: location))
    }

    /// A JACK MIDI output when live.
    @discardableResult
    package func addMIDIOutput(_ name: String, ports: [String] = [],
                               location: SourceLocation? = nil) throws(GraphError) -> GraphNode {
        try add(GraphNode(name: name, kind: .midiOutput(ports: ports), location: location))
    }

    private func add(_ node: GraphNode) throws(GraphError) -> GraphNode {
        guard !node.name.isEmpty else { throw GraphError("a node needs a name", at: node.location) }
        if nodes.contains(where: { $0.name == node.name }) {
            throw GraphError("there is already a node named `\(node.name)`", at: node.location)
        }
        switch node.kind {
        case .output(let channels, _) where channels == EndpointPorts.asWideAsInput:
            break
        case .input(let channels, _), .output(let channels, _), .mixer(let channels):
            guard channels > 0 else {
                throw GraphError("node `\(node.name)` needs at least one channel", at: node.location)
            }
        case .filePlayer(let file):
            guard file.channels > 0 else {
                throw GraphError("file `\(file.path)` of node `\(node.name)` has no channels", at: node.location)
            }
            if let refusal = InputBounds.gainRefusal(file.gainDecibels) { throw GraphError(refusal, at: node.location) }
            if file.pan != nil && file.channels > 2 {
                throw GraphError("`pan` works on mono and stereo files, but `\(file.path)` has \(file.channels) channels",
                                 at: node.location, suggestion: "remove `pan` and wire its channels explicitly")
            }
        case .unit(let unit, _):
            // One unit is one set of plugin instances: in two places at once
            // it would run twice per block and leave one node's output unwritten.
            if let other = nodes.first(where: { if case .unit(let existing, _) = $0.kind { existing === unit } else { false } }) {
                throw GraphError("this \(unit.displayName) unit is already in the graph as `\(other.name)`; make a new unit for `\(node.name)`",
                                 at: node.location)
            }
        case .gain(let decibels):
            if let refusal = InputBounds.gainRefusal(decibels) { throw GraphError(refusal, at: node.location) }
        case .midiInput, .midiFile, .midiOutput:
            break
        }
        nodes.append(node)
        return node
    }

    public func node(named name: String) -> GraphNode? { nodes.first { $0.name == name } }

    // MARK: Wiring

    /// Connects `source`'s output to `destination`'s input. Several
    /// connections into one input are summed; one output may feed many.
    public func connect(_ source: GraphNode, _ sourcePort: PortSelector = .all,
                        to destination: GraphNode, _ destinationPort: PortSelector = .all,
                        gainDecibels: Double = 0, location: SourceLocation? = nil,
                        sourceLocation: SourceLocation? = nil,
                        destinationLocation: SourceLocation? = nil) throws(GraphError) {
        try requireMember(source, location)
        try requireMember(destination, location)
        if let refusal = InputBounds.gainRefusal(gainDecibels) { throw GraphError(refusal, at: location) }
        let from = PortReference(node: source.name, port: sourcePort)
        let to = PortReference(node: destination.name, port: destinationPort)
        let key = "\(from.description) -> \(to.description)"
        if let existing = connectionIndex[key] {
            throw GraphError(ConnectionDeclaration.repeated(from: from, to: to, earlier: connections[existing].location),
                             at: location)
        }
        try WiringRules.checkConnection(from: source.name, WiringRole(source.kind),
                                        to: destination.name, WiringRole(destination.kind),
                                        location: location, sourceLocation: sourceLocation,
                                        destinationLocation: destinationLocation)
        connectionIndex[key] = connections.count
        connections.append(GraphConnection(source: source.name, sourcePort: sourcePort,
                                           destination: destination.name, destinationPort: destinationPort,
                                           gainDecibels: gainDecibels, location: location,
                                           sourceLocation: sourceLocation ?? location,
                                           destinationLocation: destinationLocation ?? location))
    }

    /// Records `node`'s output (or one of its channels) to `file` while the graph runs.
    public func installTap(on node: GraphNode, _ port: PortSelector = .all, file: String,
                           location: SourceLocation? = nil) throws(GraphError) {
        try requireMember(node, location)
        taps.append(GraphTap(node: node.name, port: port, file: file, location: location))
    }

    /// Wires declared connections and taps by node name — a patch file's, or a
    /// live edit's. `resolvePath` turns a tap's file as written into a path.
    package func wire(_ connections: [ConnectionDeclaration], taps: [TapDeclaration],
                     resolvePath: (String) -> String = { $0 }) throws(GraphError) {
        for connection in connections {
            let source = try node(for: connection.from), destination = try node(for: connection.to)
            try connect(source, connection.from.port, to: destination, connection.to.port,
                        gainDecibels: connection.gainDecibels, location: connection.location,
                        sourceLocation: connection.from.location, destinationLocation: connection.to.location)
        }
        for tap in taps {
            try installTap(on: try node(for: tap.at), tap.at.port, file: resolvePath(tap.file), location: tap.location)
        }
    }

    /// The graph's wiring as declarations (what `wire` takes), locations kept.
    package var connectionDeclarations: [ConnectionDeclaration] {
        connections.map {
            ConnectionDeclaration(from: PortReference(node: $0.source, port: $0.sourcePort, location: $0.sourceLocation),
                                  to: PortReference(node: $0.destination, port: $0.destinationPort,
                                                    location: $0.destinationLocation),
                                  gainDecibels: $0.gainDecibels, location: $0.location)
        }
    }

    package var tapDeclarations: [TapDeclaration] {
        taps.map { TapDeclaration(at: PortReference(node: $0.node, port: $0.port), file: $0.file, location: $0.location) }
    }

    private func node(for reference: PortReference) throws(GraphError) -> GraphNode {
        guard let found = node(named: reference.node) else {
            throw GraphError("there is no node named `\(reference.node)`", at: reference.location,
                             suggestion: Suggestion.didYouMean(reference.node, in: nodes.map(\.name)))
        }
        return found
    }

    private func requireMember(_ node: GraphNode, _ location: SourceLocation?) throws(GraphError) {
        guard self.node(named: node.name) != nil else {
            throw GraphError("node `\(node.name)` is not in this graph", at: location,
                             suggestion: Suggestion.didYouMean(node.name, in: nodes.map(\.name)))
        }
    }

    // MARK: Compiling

    /// Resolves channel widths, checks the wiring, prepares every unit's
    /// instances for `format` (making them where needed: the one step that
    /// touches units, and only their instances of this format), then builds
    /// a plan. `continuing`: the plan the new one replaces while audio runs
    /// (a live edit). Its latency delay lines carry on in the new plan, so an
    /// edit makes no gap on compensated paths.
    public func compile(format: RenderFormat, continuing previous: RenderPlan? = nil) throws(GraphError) -> RenderPlan {
        try GraphCompiler.compile(self, format: format, previous: previous)
    }
}
