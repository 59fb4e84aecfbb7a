import CJack
import CCoreShim
import Glibc
import HostCore
import Synchronization

// Called by: the realtime thread only: JACK's process callback calls
// `runLiveCycle` once per cycle. Everything it reaches is in this folder,
// HostCore/Realtime (`RenderWorkers.render` when the engine has worker
// threads, the transport clock), HostCore/MIDI (a `midi-file` node's
// playback), HostCore/Render (`RenderProgram.render`, `MIDIEventList`) and,
// through the plan's ops, the LV2Bridge hooks (messages, time, MIDI ports).

/// One JACK cycle: apply queued commands, swap in a published program, then
/// render `frameCount` frames in chunks of at most the program's block size,
/// copying JACK inputs and file feeds in before each chunk, and outputs out,
/// taps and meters after it.
@_noLocks
func runLiveCycle(_ state: UnsafeMutablePointer<LiveEngineState>, frameCount: Int) {
    _unsafePerformance { fxhost_realtime_enter() }
    let cycleStart = MonotonicClock.nanoseconds()
    var renderTime = 0

    // Commands first, then the swap: a command queued before a publish still
    // lands in memory the old program's owner keeps alive.
    let applied = state.pointee.commands.applyPending(state.pointee.motions)
    if applied > 0 { state.pointee.commandsApplied.wrappingAdd(applied, ordering: .relaxed) }
    swapInPublishedProgram(state)

    let frames = UInt32(truncatingIfNeeded: frameCount)
    // Controllers before the block: a CC is heard in the block it arrives in.
    applyMIDIControl(state, frames: frames)
    clearMIDIOutputs(state, frames: frames)
    if let slot = state.pointee.current {
        let program = slot.pointee.program
        let inputs = slot.pointee.inputs
        let outputs = slot.pointee.outputs
        let feeds = slot.pointee.feeds
        let taps = slot.pointee.taps
        let meters = slot.pointee.meters
        let workers = state.pointee.workers
        let blockLimit = max(program.maxBlockFrames, 1)
        // A MIDI clock followed moves the transport before its position is taken.
        if state.pointee.clockInput.port != nil { readMIDIClock(state, frames: frames) }
        var position = state.pointee.transport.position(
            frames: frameCount, sampleRate: state.pointee.sampleRate.load(ordering: .relaxed))
        if state.pointee.clockOutput.port != nil { sendMIDIClock(state, position: position, frames: frames) }
        // The cycle's JACK frame time, for taps (a take's clock) and file
        // sources whose clock has a task (and by readMIDIClock with clock_in); read only then: libjack reads it
        // from memory the server wrote this cycle, often on the other core
        // (a bare client's first read of a cycle took 0.12-0.17 µs more than a second).
        var cycleTime = -1
        // An xrun (the server ran cycles without fxhost) left the sources
        // that far behind their origins: each notes its origin anew, so a
        // restart resumes it where it is, not where it would have been. The
        // xrun callback's count tells, at one load a cycle.
        let xruns = state.pointee.xruns.load(ordering: .relaxed)
        if xruns != state.pointee.xrunsSeen {
            state.pointee.xrunsSeen = xruns
            for feed in feeds { feed.counters.pointee.clock.pointee.fellBehind() }
            for feed in slot.pointee.midiFiles { feed.clock.pointee.fellBehind() }
        }
        if let client = state.pointee.client, !taps.isEmpty || sourceClocksHaveTasks(slot) {
            cycleTime = Int(_unsafePerformance { jack_last_frame_time(client) })
        }
        var offset = 0
        while offset < frameCount {
            let chunk = min(blockLimit, frameCount - offset)
            let byteCount = chunk * MemoryLayout<Float>.stride
            for index in 0..<inputs.count {
                let port = state.pointee.inputPorts[index]
                _unsafePerformance {
                    let source = jack_port_get_buffer(port, frames)!.assumingMemoryBound(to: Float.self) + offset
                    UnsafeMutableRawPointer(inputs[index]).copyMemory(from: source, byteCount: byteCount)
                }
            }
            let chunkTime = cycleTime < 0 ? -1 : cycleTime + offset
            for feed in feeds { feed.fill(frames: chunk, frameTime: chunkTime) }
            fillMIDIInputs(state, slot, frames: frames, offset: offset, chunk: chunk, frameTime: chunkTime)
            program.transport?.pointee = position
            // A gliding scene's values at this block's first frame (one load when none glides).
            let glides = state.pointee.sceneGlides.slots
            if glides.isActive { glides.advance(frames: chunk) }
            // Later chunks of the cycle roll on: no jump, so nothing is sent.
            if position.speed != 0 { position.frame += Int64(chunk) }
            let renderStart = MonotonicClock.nanoseconds()
            if let workers { workers.render(program, frames: chunk) } else { program.render(frames: chunk) }
            renderTime += MonotonicClock.nanoseconds() - renderStart
            for tap in taps { tap.push(frames: chunk, frameTime: chunkTime) }
            for meter in meters { meter.measure(frames: chunk) }
            for index in 0..<outputs.count {
                let port = state.pointee.outputPorts[index]
                _unsafePerformance {
                    let destination = jack_port_get_buffer(port, frames)!.assumingMemoryBound(to: Float.self) + offset
                    UnsafeMutableRawPointer(destination).copyMemory(from: outputs[index], byteCount: byteCount)
                }
            }
            writeMIDIOutputs(state, slot, frames: frames, offset: offset)
            offset += chunk
        }
    } else {
        // Nothing published yet: silence, not whatever the buffers held.
        clearMIDIClock(state, frames: frames)
        for port in state.pointee.outputPorts {
            _unsafePerformance {
                let destination = jack_port_get_buffer(port, frames)!
                destination.initializeMemory(as: Float.self, repeating: 0, count: frameCount)
            }
        }
    }

    // After the block: whatever changed the mapped values this cycle is in them.
    sendMIDIFeedback(state, frames: frames)
    state.pointee.cycles.wrappingAdd(1, ordering: .relaxed)
    state.pointee.frames.wrappingAdd(frameCount, ordering: .relaxed)
    state.pointee.renderNanoseconds.wrappingAdd(renderTime, ordering: .relaxed)
    state.pointee.callbackNanoseconds.wrappingAdd(MonotonicClock.nanoseconds() - cycleStart, ordering: .relaxed)
    _unsafePerformance { fxhost_realtime_exit() }
}

/// True when a file or MIDI-file source's clock has a task at this cycle's
/// fills (noting its origin, or skipping to it): one relaxed load each.
@_noLocks
func sourceClocksHaveTasks(_ slot: UnsafeMutablePointer<ProgramSlot>) -> Bool {
    for feed in slot.pointee.feeds where feed.counters.pointee.clock.pointee.hasTask { return true }
    for feed in slot.pointee.midiFiles where feed.clock.pointee.hasTask { return true }
    return false
}

/// Takes a published program when there is somewhere to hand the current one
/// back (the retired slot is empty), connects its ports on this thread, and
/// retires the old one for the control thread to free.
@_noLocks
func swapInPublishedProgram(_ state: UnsafeMutablePointer<LiveEngineState>) {
    let old = state.pointee.current
    if old != nil && state.pointee.retired.load(ordering: .acquiring) != nil { return }
    guard let next = state.pointee.pending.exchange(nil, ordering: .acquiringAndReleasing) else { return }
    next.pointee.program.connectPorts()
    // Ramps and glides may point into the old program's memory: land them
    // before handing it back, unless the new program runs the same plan
    // (only its MIDI table is new: a `learn`, a map edit), whose memory stays.
    if !next.pointee.continuesPlan {
        state.pointee.midiRamps.slots.finishAll()
        state.pointee.sceneGlides.slots.finishAll()
    }
    if let old { state.pointee.retired.store(old, ordering: .releasing) }
    state.pointee.current = next
    // Releasing: whoever sees the new count also sees the retired slot.
    state.pointee.programSwaps.wrappingAdd(1, ordering: .releasing)
    state.pointee.programSwapped.signal()
}
