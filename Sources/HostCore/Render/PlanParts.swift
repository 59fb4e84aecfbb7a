/// A source node's buffers: a live input (ports) or a file player.
package struct PlanSource {
    package enum Kind {
        case input(ports: [String])
        case file(FilePlayerSource)
    }
    package let node: String
    package let kind: Kind
    package let channels: [UnsafeMutablePointer<Float>]
}

package struct PlanOutput {
    package let node: String
    package let ports: [String]
    package let channels: [UnsafeMutablePointer<Float>]
    /// Frames from the sources to this output (the plan's latency: outputs are aligned).
    package let latencyFrames: Int
}

package struct PlanTap {
    package let node: String
    package let file: String
    package let location: SourceLocation?
    package let channels: [UnsafeMutablePointer<Float>]
}

/// A node as the compiler resolved it.
package struct PlanNode {
    package let name: String
    /// "plugin mda Overdrive", "mix bus", "file stems/vox.wav", ...
    package let summary: String
    package let inputWidth: Int
    package let outputWidth: Int
    /// Plugin instances (more than one: a mono plugin run per channel).
    package let instances: Int
    /// Per input channel, what feeds it: "drive:1", "vox:2 (-12 dB)".
    package let inputs: [[String]]
    /// The node's own latency (a plugin's reported latency; 0 for built-in nodes).
    package let latencyFrames: Int
    /// Frames from the sources to this node's output: the latest feed plus its own.
    package let outputLatencyFrames: Int
    /// Per MIDI input port that something feeds: its name and what feeds it ("keys", "filter:midiout").
    package var midiInputs: [(port: String, feeds: [String])] = []
    /// A plugin node's plugin, as the plugin names itself ("mda Overdrive").
    package var plugin: String? = nil
}

/// A MIDI source node's list, which the driver fills before each block.
package struct PlanMIDISource {
    package enum Kind {
        /// Live: a JACK MIDI input connected to `ports`; offline: a file given with `-i`, else nothing.
        case input(ports: [String])
        case file(MIDIFileSource)
    }
    package let node: String
    package let kind: Kind
    package let list: UnsafeMutablePointer<MIDIEventList>
}

/// A MIDI output node's list, which the driver reads after each block.
package struct PlanMIDIOutput {
    package let node: String
    package let ports: [String]
    package let list: UnsafeMutablePointer<MIDIEventList>
}
