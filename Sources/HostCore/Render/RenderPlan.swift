/// A compiled graph: the realtime program plus what drivers need to feed and
/// drain it. Immutable once built; it owns every buffer the program points
/// into, and keeps its plugin instances alive through their owners
/// (`kernelOwners`), whatever format their units have moved on to.
public final class RenderPlan {
    public let format: RenderFormat
    /// What the realtime thread runs.
    package let program: RenderProgram
    /// Buffers the driver fills before each `render`, per source node.
    package let sources: [PlanSource]
    /// Buffers the driver reads after each `render`, per output node.
    package let outputs: [PlanOutput]
    /// Buffers to record after each `render`.
    package let taps: [PlanTap]
    /// MIDI lists the driver fills before each `render`, per MIDI source node.
    package let midiSources: [PlanMIDISource]
    /// MIDI lists the driver reads after each `render`, per MIDI output node.
    package let midiOutputs: [PlanMIDIOutput]
    /// Every node as resolved, in schedule order, for `check` and status.
    package let nodes: [PlanNode]
    /// Frames between a source sample and the same sample at every output
    /// and tap (they are aligned to one another). Offline drivers drop this
    /// many frames at the start and render as many more at the end; a live
    /// driver reports it to the server.
    public let latencyFrames: Int
    /// What an offline driver holds shared around each block: the first
    /// unit's gate (units with rules of their kind share one per process).
    package let threadingGate: (any UnitThreadingGate)?

    private let memory: PlanMemory
    private let units: [any ProcessingUnit]
    /// The instances behind the program's kernels (see `ProcessorKernel.owner`).
    private let kernelOwners: [AnyObject]
    private let bypassFlags: [String: UnsafeMutablePointer<UInt8>]

    init(format: RenderFormat, memory: PlanMemory, sources: [PlanSource], outputs: [PlanOutput],
         taps: [PlanTap], nodes: [PlanNode], latencyFrames: Int, units: [any ProcessingUnit],
         kernelOwners: [AnyObject], bypassFlags: [String: UnsafeMutablePointer<UInt8>],
         midiSources: [PlanMIDISource] = [], midiOutputs: [PlanMIDIOutput] = []) {
        self.format = format
        self.memory = memory
        self.program = memory.program(maxBlockFrames: format.maxBlockFrames)
        self.sources = sources
        self.outputs = outputs
        self.taps = taps
        self.midiSources = midiSources
        self.midiOutputs = midiOutputs
        self.nodes = nodes
        self.latencyFrames = latencyFrames
        self.units = units
        threadingGate = units.lazy.compactMap(\.threadingGate).first
        self.kernelOwners = kernelOwners
        self.bypassFlags = bypassFlags
    }

    /// The flag that bypasses a plugin node (non-zero: bypassed), for live control.
    package func bypassFlag(of node: String) -> UnsafeMutablePointer<UInt8>? { bypassFlags[node] }

    /// Connects every kernel's ports to the plan's buffers (renders nothing):
    /// for drivers that run the plan on one thread from start to end
    /// (offline), once before the first block. Live drivers use `program`.
    package func connectPorts() { program.connectPorts() }

    /// A delay line of this plan, by identity (for the plan that replaces it).
    func delayLine(_ identity: String) -> DelayLineBox? { memory.delayLines[identity] }

    /// MIDI events dropped since the plan was made: a block's burst larger
    /// than a list holds, or than a plugin's atom input holds. Read it
    /// between blocks (the rendering thread counts).
    package var droppedMIDIEvents: Int {
        (0..<memory.midiListCount).reduce(0) { $0 + memory.midiLists[$1].dropped }
    }

    /// Number of distinct audio buffers the plan uses (after reuse).
    package var bufferCount: Int { memory.bufferCount }
}
