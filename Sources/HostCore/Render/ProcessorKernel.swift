/// `run(handle, frames)`: an LV2 descriptor's run().
public typealias KernelRunFunction = @convention(c) (UnsafeMutableRawPointer?, UInt32) -> Void
/// `connect(handle, port, data)`: an LV2 descriptor's connect_port().
public typealias KernelConnectFunction = @convention(c) (UnsafeMutableRawPointer?, UInt32, UnsafeMutableRawPointer?) -> Void
/// A realtime-safe callback with a context pointer.
public typealias KernelHookFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

/// One running instance as the realtime thread sees it: C function pointers
/// and memory owned by its unit. The plan connects `inputPorts` and
/// `outputPorts` to its own buffers; every other port (controls, atoms,
/// sidechains) the unit has connected already.
public struct ProcessorKernel {
    public var handle: UnsafeMutableRawPointer?
    public var run: KernelRunFunction
    public var connect: KernelConnectFunction
    /// Port indices of the main audio inputs, in channel order.
    public var inputPorts: [UInt32]
    /// Port indices of the main audio outputs, in channel order.
    public var outputPorts: [UInt32]
    /// Copies made before every run (an atom output's capacity, an empty
    /// input sequence).
    public var beforeRun: [MemoryReset]
    /// Called after the resets, before every run: what fills the block's
    /// events into atom inputs (after a reset each holds an empty sequence).
    public var fillBeforeRun: [KernelHook]
    /// Called after every run (delivering worker responses).
    public var afterRun: KernelHook?
    /// The unit's MIDI inputs (`ProcessingUnit.midiInputs` order): what a
    /// plan's MIDI connection puts into the port, after `fillBeforeRun`.
    package var midiInputs: [KernelMIDIPort] = []
    /// The unit's MIDI outputs: read into the plan's MIDI list after run().
    package var midiOutputs: [KernelMIDIPort] = []
    /// Connections the plan makes to its transport cell (`data` is filled
    /// in by the plan): each gives a time hook the `TransportPosition` it
    /// reads, on the rendering thread, as audio ports are connected.
    package var transportConnections: [PortConnection] = []
    /// What owns the memory behind these pointers. A plan keeps it alive, so
    /// a unit may move on to new instances (a new format) while plans built
    /// on the old ones still run.
    public var owner: AnyObject?

    public init(handle: UnsafeMutableRawPointer?, run: KernelRunFunction, connect: KernelConnectFunction,
                inputPorts: [UInt32], outputPorts: [UInt32], beforeRun: [MemoryReset] = [],
                fillBeforeRun: [KernelHook] = [], afterRun: KernelHook? = nil, owner: AnyObject? = nil) {
        self.handle = handle
        self.run = run
        self.connect = connect
        self.inputPorts = inputPorts
        self.outputPorts = outputPorts
        self.beforeRun = beforeRun
        self.fillBeforeRun = fillBeforeRun
        self.afterRun = afterRun
        self.owner = owner
    }
}

/// `memcpy(destination, source, byteCount)` before a run.
public struct MemoryReset {
    public var destination: UnsafeMutableRawPointer
    public var source: UnsafeRawPointer
    public var byteCount: Int

    public init(destination: UnsafeMutableRawPointer, source: UnsafeRawPointer, byteCount: Int) {
        self.destination = destination
        self.source = source
        self.byteCount = byteCount
    }
}

public struct KernelHook {
    public var function: KernelHookFunction
    public var context: UnsafeMutableRawPointer?

    public init(function: KernelHookFunction, context: UnsafeMutableRawPointer?) {
        self.function = function
        self.context = context
    }
}
