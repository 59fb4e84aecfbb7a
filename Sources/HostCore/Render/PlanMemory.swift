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
    /// The ops cut into tasks for worker threads; nil when there is one task.
    let tasks: RenderTaskLayout?
    /// MIDI lists (`MIDIEventList`), each with room for `MIDIEventList.capacityPerBlock` events.
    let midiLists: UnsafeMutablePointer<MIDIEventList>
    let midiListCount: Int
    private let midiEvents: UnsafeMutablePointer<MIDIEvent>
    /// The block's musical position, written by the driver (`RenderProgram.transport`).
    let transport: UnsafeMutablePointer<TransportPosition>

    /// Zeroed, touched memory for `bufferCount` buffers of `frames`, plus the rest.
    init(bufferCount: Int, frames: Int, opCount: Int, connectionCount: Int, gainCount: Int, flagCount: Int,
         delayLines: [String: DelayLineBox], tasks: RenderTaskLayout? = nil, midiListCount: Int = 0) {
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
        self.tasks = tasks
        self.midiListCount = midiListCount
        let capacity = MIDIEventList.capacityPerBlock
        midiEvents = .allocate(capacity: max(1, midiListCount * capacity))
        midiEvents.initialize(repeating: MIDIEvent(frame: 0, size: 0, status: 0), count: max(1, midiListCount * capacity))
        midiLists = .allocate(capacity: max(1, midiListCount))
        for index in 0..<midiListCount {
            (midiLists + index).initialize(to: MIDIEventList(events: midiEvents + index * capacity, capacity: capacity))
        }
        transport = .allocate(capacity: 1)
        transport.initialize(to: TransportPosition())
    }

    /// The program; its transport cell only when some plugin reads it, so a
    /// driver works out no position for a plan that takes none.
    func program(maxBlockFrames: Int) -> RenderProgram {
        let cell = UnsafeMutableRawPointer(transport)
        return RenderProgram(ops: UnsafeBufferPointer(ops), connections: UnsafeBufferPointer(connections),
                             maxBlockFrames: maxBlockFrames, tasks: tasks,
                             transport: connections.contains { $0.data == cell } ? transport : nil)
    }

    deinit {
        buffers.deallocate()
        silence.deallocate()
        ops.deallocate()
        connections.deallocate()
        gains.deallocate()
        flags.deallocate()
        tasks?.deallocate()
        midiLists.deallocate()
        midiEvents.deallocate()
        transport.deallocate()
    }
}
