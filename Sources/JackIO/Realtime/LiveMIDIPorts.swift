import CJack
import HostCore

// Called by: the realtime thread only: `runLiveCycle` calls these for each
// cycle (`clearMIDIOutputs`) and each chunk of it.

/// Empties the graph's JACK MIDI output buffers for the cycle (JACK wants
/// it even when nothing is written, or last cycle's events repeat).
@_noLocks
func clearMIDIOutputs(_ state: UnsafeMutablePointer<LiveEngineState>, frames: UInt32) {
    for port in state.pointee.midiOutputPorts {
        _unsafePerformance {
            if let buffer = jack_port_get_buffer(port, frames) { jack_midi_clear_buffer(buffer) }
        }
    }
}

/// Fills the program's MIDI lists for the chunk of `chunk` frames at
/// `offset` in the cycle: each JACK MIDI input's events of that chunk, at
/// their frame within it (so a cycle of one chunk keeps JACK's offsets as
/// they are), and each MIDI file's next events. Longer messages (system
/// exclusive) are dropped and counted.
@_noLocks
func fillMIDIInputs(_ state: UnsafeMutablePointer<LiveEngineState>, _ slot: UnsafeMutablePointer<ProgramSlot>,
                    frames: UInt32, offset: Int, chunk: Int, frameTime: Int) {
    let lists = slot.pointee.midiInputs
    let ports = state.pointee.midiInputPorts
    for index in 0..<min(lists.count, ports.count) {
        let list = lists[index]
        list.pointee.removeAll()
        let buffer = _unsafePerformance { jack_port_get_buffer(ports[index], frames) }
        guard let buffer else { continue }
        let count = _unsafePerformance { jack_midi_get_event_count(buffer) }
        var event = jack_midi_event_t()
        for eventIndex in 0..<count {
            let read = _unsafePerformance { jack_midi_event_get(&event, buffer, eventIndex) }
            guard read == 0, let bytes = event.buffer else { continue }
            let time = Int(event.time)
            guard time >= offset && time < offset + chunk else { continue }
            guard event.size >= 1 && event.size <= 3 else {
                list.pointee.dropped &+= 1
                continue
            }
            let size = UInt8(truncatingIfNeeded: event.size)
            let frame = UInt32(truncatingIfNeeded: time - offset)
            let data1 = size > 1 ? bytes[1] : 0
            let data2 = size > 2 ? bytes[2] : 0
            let message = MIDIEvent(frame: frame, size: size, status: bytes[0], data1: data1, data2: data2)
            list.pointee.insert(message)
        }
    }
    for feed in slot.pointee.midiFiles { feed.fill(frames: chunk, frameTime: frameTime) }
}

/// Writes the program's MIDI output lists for the chunk at `offset` into
/// the JACK MIDI outputs, each event at its frame in the cycle. JACK's
/// buffer full: the event is dropped and counted.
@_noLocks
func writeMIDIOutputs(_ state: UnsafeMutablePointer<LiveEngineState>, _ slot: UnsafeMutablePointer<ProgramSlot>,
                      frames: UInt32, offset: Int) {
    let lists = slot.pointee.midiOutputs
    let ports = state.pointee.midiOutputPorts
    for index in 0..<min(lists.count, ports.count) {
        let list = lists[index]
        let buffer = _unsafePerformance { jack_port_get_buffer(ports[index], frames) }
        guard let buffer else { continue }
        for eventIndex in 0..<list.pointee.count {
            let event = list.pointee.events[eventIndex]
            let room = _unsafePerformance {
                jack_midi_event_reserve(buffer, jack_nframes_t(Int(event.frame) + offset), Int(event.size))
            }
            guard let room else {
                list.pointee.dropped &+= 1
                continue
            }
            room[0] = event.status
            if event.size > 1 { room[1] = event.data1 }
            if event.size > 2 { room[2] = event.data2 }
        }
    }
}
