import HostCore

/// What a `LiveEngine` runs: a compiled program plus where it meets JACK.
/// Each `inputs[i]` is the buffer the program reads for JACK input port i
/// (the callback copies the port into it); each `outputs[i]` the buffer it
/// writes for output port i. Each holds `program.maxBlockFrames` floats.
package struct LiveProgram {
    package var program: RenderProgram
    package var inputs: [UnsafeMutablePointer<Float>]
    package var outputs: [UnsafeMutablePointer<Float>]
    /// Owns the program's memory (a RenderPlan, its units). The engine keeps
    /// it alive until the realtime thread has let go of the program, then
    /// releases it on a control thread.
    package var owner: LivePlanOwner?
    /// File sources to fill before each chunk is rendered.
    package var feeds: [LiveFeed]
    /// Taps to push, and output meters to update, after each chunk.
    package var taps: [LiveTap]
    package var meters: [LiveMeter]
    /// MIDI mappings resolved against this program's plan (empty: none).
    package var midi = MIDIControlTable.empty
    /// The lists the program reads for JACK MIDI input port i (the callback
    /// fills them), and writes for MIDI output port i; MIDI files to play
    /// into their lists before each chunk.
    package var midiInputs: [UnsafeMutablePointer<MIDIEventList>] = []
    package var midiOutputs: [UnsafeMutablePointer<MIDIEventList>] = []
    package var midiFiles: [LiveMIDIFeed] = []
    /// The running program's plan again, with only a new MIDI table (a
    /// `learn`, a map edit): its memory stays, so glides and knob ramps go on
    /// through the swap instead of landing.
    package var continuesPlan = false

    package init(program: RenderProgram, inputs: [UnsafeMutablePointer<Float>],
                outputs: [UnsafeMutablePointer<Float>], owner: LivePlanOwner?,
                feeds: [LiveFeed] = [], taps: [LiveTap] = [], meters: [LiveMeter] = []) {
        self.program = program
        self.inputs = inputs
        self.outputs = outputs
        self.owner = owner
        self.feeds = feeds
        self.taps = taps
        self.meters = meters
    }
}

/// A published program as the realtime thread sees it: plain pointers only.
/// Allocated and freed off the realtime thread.
struct ProgramSlot {
    var program: RenderProgram
    var inputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    var outputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    var feeds: UnsafeMutableBufferPointer<LiveFeed>
    var taps: UnsafeMutableBufferPointer<LiveTap>
    var meters: UnsafeMutableBufferPointer<LiveMeter>
    var midi: MIDIControlTable
    var midiInputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<MIDIEventList>>
    var midiOutputs: UnsafeMutableBufferPointer<UnsafeMutablePointer<MIDIEventList>>
    var midiFiles: UnsafeMutableBufferPointer<LiveMIDIFeed>
    /// See `LiveProgram.continuesPlan`.
    var continuesPlan: Bool
    /// A retained `owner`, unmanaged so that copying the slot on the
    /// realtime thread never touches a reference count.
    var owner: Unmanaged<LivePlanOwner>?

    static func make(_ live: LiveProgram) -> UnsafeMutablePointer<ProgramSlot> {
        let inputs = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: live.inputs.count)
        _ = inputs.initialize(from: live.inputs)
        let outputs = UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>.allocate(capacity: live.outputs.count)
        _ = outputs.initialize(from: live.outputs)
        let feeds = UnsafeMutableBufferPointer<LiveFeed>.allocate(capacity: live.feeds.count)
        _ = feeds.initialize(from: live.feeds)
        let taps = UnsafeMutableBufferPointer<LiveTap>.allocate(capacity: live.taps.count)
        _ = taps.initialize(from: live.taps)
        let meters = UnsafeMutableBufferPointer<LiveMeter>.allocate(capacity: live.meters.count)
        _ = meters.initialize(from: live.meters)
        let midiInputs = UnsafeMutableBufferPointer<UnsafeMutablePointer<MIDIEventList>>.allocate(capacity: live.midiInputs.count)
        _ = midiInputs.initialize(from: live.midiInputs)
        let midiOutputs = UnsafeMutableBufferPointer<UnsafeMutablePointer<MIDIEventList>>.allocate(capacity: live.midiOutputs.count)
        _ = midiOutputs.initialize(from: live.midiOutputs)
        let midiFiles = UnsafeMutableBufferPointer<LiveMIDIFeed>.allocate(capacity: live.midiFiles.count)
        _ = midiFiles.initialize(from: live.midiFiles)
        let owner = live.owner.map { Unmanaged.passRetained($0) }
        let slot = UnsafeMutablePointer<ProgramSlot>.allocate(capacity: 1)
        slot.initialize(to: ProgramSlot(program: live.program, inputs: inputs, outputs: outputs,
                                    feeds: feeds, taps: taps, meters: meters, midi: live.midi,
                                    midiInputs: midiInputs, midiOutputs: midiOutputs, midiFiles: midiFiles,
                                    continuesPlan: live.continuesPlan, owner: owner))
        return slot
    }

    /// Frees the slot and only then releases its owner (and with it the
    /// program's memory). Control thread only, once the realtime thread has
    /// let go of it.
    static func free(_ slot: UnsafeMutablePointer<ProgramSlot>) {
        let owner = slot.pointee.owner
        slot.pointee.inputs.deallocate()
        slot.pointee.outputs.deallocate()
        slot.pointee.feeds.deallocate()
        slot.pointee.taps.deallocate()
        slot.pointee.meters.deallocate()
        slot.pointee.midiInputs.deallocate()
        slot.pointee.midiOutputs.deallocate()
        slot.pointee.midiFiles.deallocate()
        slot.deinitialize(count: 1)
        slot.deallocate()
        owner?.release()
    }
}
