import CLilv
import HostCore

// Called by: the thread that renders (`AtomMIDIPort.write`, `.read`, through
// a plan's `.midiPort` op); set up on the control thread with the instance.

/// A plugin's MIDI atom port as a plan's MIDI connection meets it: the
/// context a `KernelMIDIPort` hands its function, in the instance's arena.
struct AtomMIDIPort {
    /// The port's buffer (`AtomPortBuffer.sequence`).
    var sequence: UnsafeMutablePointer<LV2_Atom_Sequence>
    /// For an input: the bytes its body may grow to.
    var capacity: UInt32
    /// `midi:MidiEvent`, mapped.
    var midiEventType: LV2_URID
    /// `atom:Sequence`, mapped: an output the plugin did not write is still a chunk.
    var sequenceType: LV2_URID
    /// Room for one event's header and bytes, laid out as LV2 wants them
    /// (`scratchBytes`, 8-byte aligned, in the arena), so appending builds
    /// nothing on the heap.
    var scratch: UnsafeMutableRawPointer

    static let scratchBytes = MemoryLayout<LV2_Atom_Event>.size + 8

    /// Appends the list's events, in order, after whatever the unit's own
    /// `fillBeforeRun` hooks put there (frame-0 messages), with LV2's own
    /// `lv2_atom_sequence_append_event`.
    static let write: KernelMIDIFunction = { context, list, _ in
        guard let port = context?.assumingMemoryBound(to: AtomMIDIPort.self),
              let events = list?.assumingMemoryBound(to: MIDIEventList.self) else { return }
        write(events, into: port)
    }

    /// `write`'s body, checked by the compiler as realtime code.
    @_noLocks
    static func write(_ events: UnsafeMutablePointer<MIDIEventList>, into port: UnsafeMutablePointer<AtomMIDIPort>) {
        let count = events.pointee.count
        for index in 0..<count {
            let event = events.pointee.events[index]
            let raw = port.pointee.scratch
            let header = raw.assumingMemoryBound(to: LV2_Atom_Event.self)
            header.pointee.time.frames = Int64(event.frame)
            header.pointee.body = LV2_Atom(size: UInt32(event.size), type: port.pointee.midiEventType)
            let bytes = (raw + MemoryLayout<LV2_Atom_Event>.size).assumingMemoryBound(to: UInt8.self)
            bytes[0] = event.status
            bytes[1] = event.data1
            bytes[2] = event.data2
            let appended = _unsafePerformance {
                lv2_atom_sequence_append_event(port.pointee.sequence, port.pointee.capacity, header) != nil
            }
            // The input's sequence is full (a burst beyond its size): counted with the list's own drops.
            if !appended { events.pointee.dropped &+= 1 }
        }
    }

    /// Reads the `midi:MidiEvent`s the plugin wrote in its run into the
    /// list (emptied first); other events, and anything longer than a
    /// channel message, are passed over.
    static let read: KernelMIDIFunction = { context, list, frames in
        guard let port = context?.assumingMemoryBound(to: AtomMIDIPort.self),
              let events = list?.assumingMemoryBound(to: MIDIEventList.self) else { return }
        read(from: port, into: events, frames: frames)
    }

    /// `read`'s body, checked by the compiler as realtime code.
    @_noLocks
    static func read(from port: UnsafeMutablePointer<AtomMIDIPort>, into events: UnsafeMutablePointer<MIDIEventList>,
                     frames: UInt32) {
        events.pointee.removeAll()
        let sequence = port.pointee.sequence
        guard sequence.pointee.atom.type == port.pointee.sequenceType else { return }
        let size = sequence.pointee.atom.size
        let body = (UnsafeMutableRawPointer(sequence) + MemoryLayout<LV2_Atom>.size)
            .assumingMemoryBound(to: LV2_Atom_Sequence_Body.self)
        var iterator = _unsafePerformance { lv2_atom_sequence_begin(body) }
        while let event = iterator, !_unsafePerformance({ lv2_atom_sequence_is_end(body, size, event) }) {
            let length = event.pointee.body.size
            if event.pointee.body.type == port.pointee.midiEventType, length >= 1, length <= 3 {
                let bytes = UnsafeRawPointer(event + 1).assumingMemoryBound(to: UInt8.self)
                let frame = UInt32(clamping: max(0, min(Int64(frames) - 1, event.pointee.time.frames)))
                events.pointee.insert(MIDIEvent(frame: frame, size: UInt8(length), status: bytes[0],
                                                data1: length > 1 ? bytes[1] : 0, data2: length > 2 ? bytes[2] : 0))
            }
            iterator = _unsafePerformance { lv2_atom_sequence_next(event) }
        }
    }
}
