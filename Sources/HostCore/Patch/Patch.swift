/// The validated model of a patch file: what the user declared, with where
/// each thing was declared so later stages can point at it.
///
/// The parser (`PatchParser`) checks everything that needs no plugin
/// knowledge: syntax, keys, types, units, node references, cycles. The graph
/// builder checks the rest (plugins, port symbols, presets, parameter ranges,
/// channel matching) and reports at the same locations.
public struct Patch: Sendable, Equatable {
    /// Format version (`fxhost: 1`).
    package var version: Int
    package var name: String?
    /// Nodes in declaration order.
    package var nodes: [NodeDeclaration]
    /// `chain` expanded to connections, followed by `connect`, in file order.
    package var connections: [ConnectionDeclaration]
    package var taps: [TapDeclaration]
    /// `midi-control:` and `scenes:` (used live; a render only checks them).
    package var midiControl = MIDIControl()
    /// `tempo:` and `meter:` (120 bpm in 4/4 when the patch says nothing).
    package var tempo = Tempo()
    /// `clock:`: MIDI clock followed and sent (used live).
    package var clock = MIDIClockPorts()
    /// Where `clock:` is written, if it is (a setlist names it when it differs).
    package var clockLocation: SourceLocation?
    /// The file the patch came from (for resolving relative paths), or nil.
    package var sourcePath: String?

    package init(version: Int = 1, name: String? = nil, nodes: [NodeDeclaration] = [],
                connections: [ConnectionDeclaration] = [], taps: [TapDeclaration] = [],
                sourcePath: String? = nil) {
        self.version = version
        self.name = name
        self.nodes = nodes
        self.connections = connections
        self.taps = taps
        self.sourcePath = sourcePath
    }

    package func node(named name: String) -> NodeDeclaration? { nodes.first { $0.name == name } }
}
