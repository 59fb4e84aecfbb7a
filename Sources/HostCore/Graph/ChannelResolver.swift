/// Works out node widths in schedule order and expands connections into
/// per-channel contributions, with errors that say how to wire ambiguous
/// cases explicitly. The rules are the users' own: docs/patch-format.md,
/// "How channels are matched" (docs/architecture.md places this step).
struct ChannelResolver {
    let graph: AudioGraph
    let order: [Int]
    /// The connections that carry audio (MIDI ones are `MIDIWiring`'s).
    let connections: [GraphConnection]
    private let indexByName: [String: Int]

    init(graph: AudioGraph, order: [Int], connections: [GraphConnection]) {
        self.graph = graph
        self.order = order
        self.connections = connections
        var index: [String: Int] = [:]
        for (position, node) in graph.nodes.enumerated() { index[node.name] = position }
        indexByName = index
    }

    func index(of name: String) -> Int { indexByName[name]! }

    /// Layouts by node index, and contributions by node index and input channel.
    func resolve() throws(GraphError) -> (layouts: [NodeLayout], inputs: [[[Contribution]]]) {
        let nodes = graph.nodes
        var layouts = [NodeLayout?](repeating: nil, count: nodes.count)
        var inputs = [[[Contribution]]](repeating: [], count: nodes.count)
        for nodeIndex in order {
            let node = nodes[nodeIndex]
            let incoming = connections.filter { $0.destination == node.name }
            let layout = try layout(of: node, incoming: incoming, layouts: layouts)
            layouts[nodeIndex] = layout
            var contributions = [[Contribution]](repeating: [], count: layout.inputWidth)
            for connection in incoming {
                let sourceIndex = index(of: connection.source)
                let sourceLayout = layouts[sourceIndex]!
                let sourceChannels = try self.channels(of: nodes[sourceIndex], connection.sourcePort, side: .output,
                                                  layout: sourceLayout, at: connection.sourceLocation)
                let destinationChannels = try self.channels(of: node, connection.destinationPort, side: .input,
                                                            layout: layout, at: connection.destinationLocation)
                for (source, destination) in try pair(sourceChannels, destinationChannels, connection, node) {
                    contributions[destination].append(Contribution(sourceNode: sourceIndex, sourceChannel: source,
                                                              gainDecibels: connection.gainDecibels))
                }
            }
            inputs[nodeIndex] = contributions
        }
        return (layouts.map { $0! }, inputs)
    }

    private func layout(of node: GraphNode, incoming: [GraphConnection],
                        layouts: [NodeLayout?]) throws(GraphError) -> NodeLayout {
        switch node.kind {
        case .input(let channels, _):
            return NodeLayout(inputWidth: 0, outputWidth: channels, instances: 1)
        case .midiInput, .midiFile, .midiOutput:
            return NodeLayout(inputWidth: 0, outputWidth: 0, instances: 1)
        case .filePlayer(let file):
            return NodeLayout(inputWidth: 0, outputWidth: file.pan == nil ? file.channels : 2, instances: 1)
        case .output(let channels, _) where channels == EndpointPorts.asWideAsInput:
            let width = max(1, incoming.map { streamWidth($0, layouts) }.max() ?? 1)
            return NodeLayout(inputWidth: width, outputWidth: width, instances: 1)
        case .output(let channels, _), .mixer(let channels):
            return NodeLayout(inputWidth: channels, outputWidth: channels, instances: 1)
        case .gain:
            let width = max(1, incoming.map { streamWidth($0, layouts) }.max() ?? 1)
            return NodeLayout(inputWidth: width, outputWidth: width, instances: 1)
        case .unit(let unit, _):
            let portsIn = unit.inputPorts.count, portsOut = unit.outputPorts.count
            if portsIn == 0, let first = incoming.first {
                throw GraphError("`\(node.name)` (\(unit.displayName)) has no audio inputs to connect to",
                                 at: first.location)
            }
            // Explicit channel or port wiring addresses one instance's ports.
            if incoming.contains(where: { $0.destinationPort != .all }) || incoming.isEmpty {
                return NodeLayout(inputWidth: portsIn, outputWidth: portsOut, instances: 1)
            }
            let width = incoming.map { streamWidth($0, layouts) }.max() ?? portsIn
            if width == portsIn || width == 1 {
                return NodeLayout(inputWidth: portsIn, outputWidth: portsOut, instances: 1)
            }
            if portsIn == 1 && portsOut == 1 {
                return NodeLayout(inputWidth: width, outputWidth: width, instances: width)
            }
            let widest = incoming.first { streamWidth($0, layouts) == width }!
            throw GraphError(
                "`\(widest.source)` sends \(width) channels but `\(node.name)` (\(unit.displayName)) takes \(portsIn) and gives \(portsOut)",
                at: widest.location,
                suggestion: "wire the channels explicitly, e.g. `\(widest.source):1 -> \(node.name):1`")
        }
    }

    /// How many channels a connection carries, from its source end.
    private func streamWidth(_ connection: GraphConnection, _ layouts: [NodeLayout?]) -> Int {
        connection.sourcePort == .all ? layouts[index(of: connection.source)]!.outputWidth : 1
    }

    enum Side { case input, output }

    /// The channel indices a port selector names on one side of a node.
    func channels(of node: GraphNode, _ port: PortSelector, side: Side, layout: NodeLayout,
                  at location: SourceLocation?) throws(GraphError) -> [Int] {
        let width = side == .input ? layout.inputWidth : layout.outputWidth
        let direction = side == .input ? "input" : "output"
        switch port {
        case .all:
            return Array(0..<width)
        case .channel(let channel):
            guard channel >= 1 && channel <= width else {
                throw GraphError("`\(node.name)` has \(width) \(direction) channel\(width == 1 ? "" : "s"); `\(node.name):\(channel)` does not exist",
                                 at: location)
            }
            return [channel - 1]
        case .symbol(let symbol):
            guard case .unit(let unit, _) = node.kind else {
                throw GraphError("`\(node.name)` is not a plugin, so `\(node.name):\(symbol)` names no port; use a channel number such as `\(node.name):1`",
                                 at: location)
            }
            let ports = side == .input ? unit.inputPorts : unit.outputPorts
            guard let position = ports.firstIndex(where: { $0.symbol == symbol }) else {
                let known = ports.map { "`\($0.symbol)`" }.joined(separator: ", ")
                throw GraphError("`\(node.name)` (\(unit.displayName)) has no audio \(direction) port `\(symbol)`; its \(direction)s are \(known.isEmpty ? "none" : known)",
                                 at: location, suggestion: Suggestion.didYouMean(symbol, in: ports.map(\.symbol)))
            }
            guard layout.instances == 1 else {
                throw GraphError("`\(node.name)` runs one instance per channel, so address its channels by number (`\(node.name):1`), not by port symbol",
                                 at: location)
            }
            return [position]
        }
    }

    /// Matches source channels to destination channels: in order when the
    /// counts agree, a mono source to every destination channel, all into a
    /// mono mix bus; anything else is ambiguous.
    private func pair(_ sources: [Int], _ destinations: [Int], _ connection: GraphConnection,
                      _ destination: GraphNode) throws(GraphError) -> [(Int, Int)] {
        if sources.count == destinations.count { return Array(zip(sources, destinations)) }
        if sources.count == 1 { return destinations.map { (sources[0], $0) } }
        if destinations.count == 1, case .mixer = destination.kind { return sources.map { ($0, destinations[0]) } }
        throw GraphError(
            "`\(connection.source)` sends \(sources.count) channels into \(destinations.count) of `\(connection.destination)`",
            at: connection.location,
            suggestion: "pick channels explicitly, e.g. `\(connection.source):1 -> \(connection.destination)`, or sum them with a `mix: \(destinations.count)` bus")
    }
}
