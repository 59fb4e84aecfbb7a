/// A compiled graph: the realtime program plus what drivers need to feed and
/// drain it. Immutable once built; it owns every buffer the program points
/// into and keeps the units (and so their plugin instances) alive.
public final class RenderPlan {
    public let format: RenderFormat
    /// What the realtime thread runs.
    public let program: RenderProgram
    /// Buffers the driver fills before each `render`, per source node.
    public let sources: [PlanSource]
    /// Buffers the driver reads after each `render`, per output node.
    public let outputs: [PlanOutput]
    /// Buffers to record after each `render`.
    public let taps: [PlanTap]
    /// Every node as resolved, in schedule order, for `check` and status.
    public let nodes: [PlanNode]
    /// Frames between a source sample and the same sample at every output
    /// and tap (they are aligned to one another). Offline drivers drop this
    /// many frames at the start and render as many more at the end; a live
    /// driver reports it to the server.
    public let latencyFrames: Int

    private let memory: PlanMemory
    private let units: [any ProcessingUnit]
    /// The instances behind the program's kernels (see `ProcessorKernel.owner`).
    private let kernelOwners: [AnyObject]
    private let bypassFlags: [String: UnsafeMutablePointer<UInt8>]

    init(format: RenderFormat, memory: PlanMemory, sources: [PlanSource], outputs: [PlanOutput],
         taps: [PlanTap], nodes: [PlanNode], latencyFrames: Int, units: [any ProcessingUnit],
         kernelOwners: [AnyObject], bypassFlags: [String: UnsafeMutablePointer<UInt8>]) {
        self.format = format
        self.memory = memory
        self.program = memory.program(maxBlockFrames: format.maxBlockFrames)
        self.sources = sources
        self.outputs = outputs
        self.taps = taps
        self.nodes = nodes
        self.latencyFrames = latencyFrames
        self.units = units
        self.kernelOwners = kernelOwners
        self.bypassFlags = bypassFlags
    }

    /// The flag that bypasses a plugin node (non-zero: bypassed), for live control.
    public func bypassFlag(of node: String) -> UnsafeMutablePointer<UInt8>? { bypassFlags[node] }

    /// Connects every kernel's ports to the plan's buffers (renders nothing):
    /// for drivers that run the plan on one thread from start to end
    /// (offline), once before the first block. Live drivers use `program`.
    public func connectPorts() { program.connectPorts() }

    /// A delay line of this plan, by identity (for the plan that replaces it).
    func delayLine(_ identity: String) -> DelayLineBox? { memory.delayLines[identity] }

    /// Number of distinct audio buffers the plan uses (after reuse).
    public var bufferCount: Int { memory.bufferCount }
}

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

/// All memory a plan owns, freed together.
final class PlanMemory {
    let buffers: UnsafeMutablePointer<Float>
    let bufferCount: Int
    /// Frames per buffer.
    let frames: Int
    let silence: UnsafeMutablePointer<Float>
    let ops: UnsafeMutableBufferPointer<RenderOp>
    let connections: UnsafeMutableBufferPointer<PortConnection>
    let gains: UnsafeMutableBufferPointer<Float>
    let flags: UnsafeMutableBufferPointer<UInt8>
    /// Delay lines by identity ("drive:1 +64"): see `DelayLineBox`.
    let delayLines: [String: DelayLineBox]

    /// Zeroed, touched memory for `bufferCount` buffers of `frames`, plus the rest.
    init(bufferCount: Int, frames: Int, opCount: Int, connectionCount: Int, gainCount: Int, flagCount: Int,
         delayLines: [String: DelayLineBox]) {
        self.bufferCount = bufferCount
        self.frames = frames
        buffers = .allocate(capacity: max(1, bufferCount * frames))
        buffers.initialize(repeating: 0, count: max(1, bufferCount * frames))
        silence = .allocate(capacity: frames)
        silence.initialize(repeating: 0, count: frames)
        ops = .allocate(capacity: opCount)
        connections = .allocate(capacity: connectionCount)
        gains = .allocate(capacity: gainCount)
        gains.initialize(repeating: 1)
        flags = .allocate(capacity: flagCount)
        flags.initialize(repeating: 0)
        self.delayLines = delayLines
    }

    func program(maxBlockFrames: Int) -> RenderProgram {
        RenderProgram(ops: UnsafeBufferPointer(ops), connections: UnsafeBufferPointer(connections),
                      maxBlockFrames: maxBlockFrames)
    }

    deinit {
        buffers.deallocate()
        silence.deallocate()
        ops.deallocate()
        connections.deallocate()
        gains.deallocate()
        flags.deallocate()
    }
}
