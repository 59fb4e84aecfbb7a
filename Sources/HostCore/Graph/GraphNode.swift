/// A node in an `AudioGraph`. Its name is its identity within the graph.
public struct GraphNode {
    public let name: String
    public let kind: GraphNodeKind
    public let location: SourceLocation?

    /// A node for a `GraphRewrite` to add (graphs make their own in `add…`).
    package init(name: String, kind: GraphNodeKind, location: SourceLocation?) {
        self.name = name
        self.kind = kind
        self.location = location
    }
}

public enum GraphNodeKind {
    case input(channels: Int, ports: [String])
    case output(channels: Int, ports: [String])
    case filePlayer(FilePlayerSource)
    case mixer(channels: Int)
    case gain(decibels: Double)
    case unit(any ProcessingUnit, bypass: Bool)
    /// A MIDI source: a JACK MIDI input port connected to `ports` (names or
    /// patterns) when live; offline, a MIDI file given with `-i`, else silent.
    case midiInput(ports: [String])
    /// A Standard MIDI File played on the timeline.
    case midiFile(MIDIFileSource)
    /// A JACK MIDI output port connected to `ports` when live; offline it plays nowhere.
    case midiOutput(ports: [String])
}
