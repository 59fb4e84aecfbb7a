/// What compiling needs to know of a graph before any unit is touched: its
/// files are distinct, the order nodes render in, each node's channel layout
/// and what feeds each of its input channels. Reading it changes nothing.
struct ResolvedGraph {
    let graph: AudioGraph
    /// Node indices, every node after all that feed it.
    let order: [Int]
    let resolver: ChannelResolver
    /// By node index.
    let layouts: [NodeLayout]
    /// By node index, then input channel: the contributions summed into it.
    let inputs: [[[Contribution]]]
    /// MIDI connections by node and MIDI port; `resolver` sees only the audio ones.
    let midi: MIDIWiring

    init(_ graph: AudioGraph) throws(GraphError) {
        if let conflict = FileConflicts(of: graph).first { throw GraphError(conflict.message, at: conflict.location) }
        self.graph = graph
        order = try Schedule.order(of: graph)
        midi = try MIDIWiring(graph)
        resolver = ChannelResolver(graph: graph, order: order, connections: midi.audioConnections)
        (layouts, inputs) = try resolver.resolve()
    }
}
