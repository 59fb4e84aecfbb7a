import CLilv
import HostCore
@testable import LV2Bridge
import XCTest

/// A plugin's MIDI input as a plan fills it, against the atom layout's
/// arithmetic: each MIDI event takes a 16-byte header plus its 3 bytes,
/// padded to 24, after the sequence body's 8 bytes; what does not fit is
/// dropped and counted, never written past the buffer.
final class AtomMIDIPortTests: XCTestCase {
    func testEventsFillTheInputInOrderAndTheRestIsCounted() throws {
        let unit = try Installed.unit("http://lv2plug.in/plugins/eg-sampler")
        XCTAssertEqual(unit.midiInputs, ["control"])
        XCTAssertEqual(unit.midiOutputs, [], "its notify port gives patch messages, not MIDI")
        let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline)
        let kernel = try XCTUnwrap(unit.prepareInstances(count: 1, format: format).kernels.first)
        let instance = try XCTUnwrap(kernel.owner as? LV2Instance)
        let atom = try XCTUnwrap(instance.atomPorts.first { $0.port.supportsMIDI && $0.port.direction == .input })
        for reset in kernel.beforeRun { reset.destination.copyMemory(from: reset.source, byteCount: reset.byteCount) }

        let storage = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: MIDIEventList.capacityPerBlock)
        defer { storage.deallocate() }
        var list = MIDIEventList(events: storage, capacity: MIDIEventList.capacityPerBlock)
        for index in 0..<1000 {
            list.insert(MIDIEvent(frame: UInt32(index / 4), size: 3, status: 0x90, data1: UInt8(index % 128), data2: 100))
        }
        let port = try XCTUnwrap(kernel.midiInputs.first)
        withUnsafeMutablePointer(to: &list) { port.function(port.context, UnsafeMutableRawPointer($0), 256) }

        let fits = (Int(atom.capacity) - 8 - 19) / 24 + 1
        let size = Int(atom.sequence.pointee.atom.size)
        XCTAssertEqual(size, 8 + 24 * fits)
        XCTAssertLessThanOrEqual(size, Int(atom.capacity))
        XCTAssertEqual(list.dropped, 1000 - fits)
        // Read back: the first `fits` events, in order, at their frames.
        let body = (UnsafeMutableRawPointer(atom.sequence) + MemoryLayout<LV2_Atom>.size)
            .assumingMemoryBound(to: LV2_Atom_Sequence_Body.self)
        var iterator = lv2_atom_sequence_begin(body)
        var index = 0
        while let event = iterator, !lv2_atom_sequence_is_end(body, UInt32(size), event) {
            let bytes = UnsafeRawPointer(event + 1).assumingMemoryBound(to: UInt8.self)
            XCTAssertEqual(event.pointee.time.frames, Int64(index / 4))
            XCTAssertEqual([bytes[0], bytes[1], bytes[2]], [0x90, UInt8(index % 128), 100])
            index += 1
            iterator = lv2_atom_sequence_next(event)
        }
        XCTAssertEqual(index, fits)
    }
}
