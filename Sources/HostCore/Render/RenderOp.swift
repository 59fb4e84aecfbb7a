/// One step of a compiled plan. Payloads are plain pointers and numbers so the
/// realtime thread touches no Swift references. Gains and flags are read
/// through pointers so they can change while a plan runs without rebuilding it.
package enum RenderOp {
    /// Fill with silence.
    case clear(UnsafeMutablePointer<Float>)
    case copy(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>)
    /// `to = from × gain`.
    case copyScaled(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>, gain: UnsafePointer<Float>)
    /// `to += from`.
    case add(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>)
    /// `to += from × gain`.
    case addScaled(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>, gain: UnsafePointer<Float>)
    /// A memory reset a kernel needs before its run.
    case reset(MemoryReset)
    /// A kernel's run() for the block. `node` is the plan's node index (a
    /// row of the names table `CrashReport` registers; -1 for none), stored
    /// in the thread's culprit cell around the call.
    case run(handle: UnsafeMutableRawPointer?, function: KernelRunFunction, node: Int32 = -1)
    /// A kernel's hook (filling its event inputs, delivering its worker's
    /// responses); `call` is the culprit cell's call kind (`FXHOST_CALL_…`).
    case hook(KernelHook, node: Int32 = -1, call: Int32 = 0)
    /// Skip the next `count` ops when the flag is non-zero (bypass).
    case skipIfSet(flag: UnsafePointer<UInt8>, count: Int)
    /// Skip the next `count` ops when the flag is zero.
    case skipIfClear(flag: UnsafePointer<UInt8>, count: Int)
    /// A plugin that bypasses itself (an `lv2:enabled` port): the control
    /// reads 0 while the bypass flag is set, else 1, before its run.
    case enableUnlessSet(flag: UnsafePointer<UInt8>, control: UnsafeMutablePointer<Float>)
    /// `delay.process(buffer)`: a fixed delay, for latency compensation.
    case delay(UnsafeMutablePointer<DelayLine>, buffer: UnsafeMutablePointer<Float>)
    /// Empties a MIDI list.
    case midiClear(UnsafeMutablePointer<MIDIEventList>)
    /// Merges one MIDI list into another in time order (several MIDI feeds into one input).
    case midiMerge(from: UnsafePointer<MIDIEventList>, to: UnsafeMutablePointer<MIDIEventList>)
    /// A plugin's MIDI port: the list into its atom input, or its atom output into the list.
    case midiPort(KernelMIDIPort, list: UnsafeMutablePointer<MIDIEventList>, node: Int32 = -1)
}

/// A port connection the plan makes once, on the thread that runs it, before
/// its first block (connect_port belongs to LV2's audio class).
package struct PortConnection {
    package var handle: UnsafeMutableRawPointer?
    package var connect: KernelConnectFunction
    package var port: UInt32
    package var data: UnsafeMutableRawPointer?

    package init(handle: UnsafeMutableRawPointer?, connect: KernelConnectFunction, port: UInt32,
                data: UnsafeMutableRawPointer?) {
        self.handle = handle
        self.connect = connect
        self.port = port
        self.data = data
    }
}
