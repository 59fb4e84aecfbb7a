/// A node in an `AudioGraph`. Its name is its identity within the graph.
public struct GraphNode {
    public let name: String
    public let kind: GraphNodeKind
    public let location: SourceLocation?
}

public enum GraphNodeKind {
    case input(channels: Int, ports: [String])
    case output(channels: Int, ports: [String])
    case filePlayer(FilePlayerSource)
    case mixer(channels: Int)
    case gain(decibels: Double)
    case unit(any ProcessingUnit, bypass: Bool)
}
