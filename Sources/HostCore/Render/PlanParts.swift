/// A source node's buffers: a live input (ports) or a file player.
public struct PlanSource {
    public enum Kind {
        case input(ports: [String])
        case file(FilePlayerSource)
    }
    public let node: String
    public let kind: Kind
    public let channels: [UnsafeMutablePointer<Float>]
}

public struct PlanOutput {
    public let node: String
    public let ports: [String]
    public let channels: [UnsafeMutablePointer<Float>]
    /// Frames from the sources to this output (the plan's latency: outputs are aligned).
    public let latencyFrames: Int
}

public struct PlanTap {
    public let node: String
    public let file: String
    public let location: SourceLocation?
    public let channels: [UnsafeMutablePointer<Float>]
}

/// A node as the compiler resolved it.
public struct PlanNode {
    public let name: String
    /// "plugin mda Overdrive", "mix bus", "file stems/vox.wav", ...
    public let summary: String
    public let inputWidth: Int
    public let outputWidth: Int
    /// Plugin instances (more than one: a mono plugin run per channel).
    public let instances: Int
    /// Per input channel, what feeds it: "drive:1", "vox:2 (-12 dB)".
    public let inputs: [[String]]
    /// The node's own latency (a plugin's reported latency; 0 for built-in nodes).
    public let latencyFrames: Int
    /// Frames from the sources to this node's output: the latest feed plus its own.
    public let outputLatencyFrames: Int
}
