import CJack
import HostCore

// Called by: the realtime thread (`runLiveCycle` calls `readMIDIClock` once a
// cycle, before the transport's position, when the patch has `clock: { input }`);
// the control thread sets the port before activation.

/// A MIDI clock followed from `fxhost:clock_in`: its pulses' frames (for
/// the tempo, `MIDIClockTempo`) and nothing else; what it says is handed to
/// `LiveTransport`, which rules the own clock by it.
struct MIDIClockInput {
    /// The JACK MIDI input (nil: the patch has no `clock: { input }`), set before the client is activated.
    var port: OpaquePointer? = nil
    var tempo = MIDIClockTempo()
    /// The JACK frame time and length of the cycle last read (nil: none
    /// yet), and whether a cycle since the last pulse came later than that
    /// one's end (the server ran cycles without fxhost: their pulses were
    /// lost). `missedBeforeStart`: those cycles came before a start or
    /// continue still waiting for its first pulse, so none of the lost pulses was its.
    var lastCycleTime: UInt32? = nil
    var lastCycleFrames: UInt32 = 0
    var cyclesMissed = false
    var missedBeforeStart = false
}

/// The cycle's clock messages, in order: a pulse (0xF8) counts at its frame
/// (JACK's frame time of the cycle plus its offset); start (0xFA), continue
/// (0xFB), stop (0xFC) and song position (0xF2) take effect from this cycle's
/// first frame. Everything else on the port is ignored.
@_noLocks
func readMIDIClock(_ state: UnsafeMutablePointer<LiveEngineState>, frames: UInt32) {
    guard let port = state.pointee.clockInput.port,
          let buffer = _unsafePerformance({ jack_port_get_buffer(port, frames) }) else { return }
    // Every cycle's frame time, to tell a cycle the server ran without fxhost (its pulses never come).
    var cycleTime: UInt32 = 0
    if let client = state.pointee.client {
        cycleTime = _unsafePerformance { jack_last_frame_time(client) }
        // Against the last cycle's own length: a shorter period (a new buffer size) is no gap.
        if let last = state.pointee.clockInput.lastCycleTime, cycleTime &- last > state.pointee.clockInput.lastCycleFrames {
            state.pointee.clockInput.cyclesMissed = true
        }
        state.pointee.clockInput.lastCycleTime = cycleTime
        state.pointee.clockInput.lastCycleFrames = frames
    }
    let count = _unsafePerformance { jack_midi_get_event_count(buffer) }
    guard count > 0 else { return }
    let sampleRate = Double(state.pointee.sampleRate.load(ordering: .relaxed))
    var event = jack_midi_event_t()
    for index in 0..<count {
        let read = _unsafePerformance { jack_midi_event_get(&event, buffer, index) }
        guard read == 0, event.size >= 1, let bytes = event.buffer else { continue }
        switch bytes[0] {
        case 0xF8:
            let missed = state.pointee.clockInput.cyclesMissed
            let beforeStart = state.pointee.clockInput.missedBeforeStart
            state.pointee.clockInput.cyclesMissed = false
            state.pointee.clockInput.missedBeforeStart = false
            let tempo = state.pointee.clockInput.tempo.pulse(atFrame: cycleTime &+ event.time, sampleRate: sampleRate,
                                                             cyclesMissed: missed)
            state.pointee.transport.clockPulse(quarterNotesPerMinute: tempo, offset: Int(event.time),
                                               pulses: state.pointee.clockInput.tempo.lastPulses, afterMissedCycles: missed,
                                               lostBeforeStart: beforeStart)
        case 0xFA:
            state.pointee.clockInput.missedBeforeStart = state.pointee.clockInput.cyclesMissed
            state.pointee.transport.clockStart()
        case 0xFB:
            state.pointee.clockInput.missedBeforeStart = state.pointee.clockInput.cyclesMissed
            state.pointee.transport.clockRolling(true)
        case 0xFC:
            state.pointee.transport.clockRolling(false)
        case 0xF2 where event.size >= 3:
            // Two 7-bit bytes, least significant first; hostile high bits masked.
            let sixteenths = Int(bytes[1] & 0x7F) | Int(bytes[2] & 0x7F) << 7
            state.pointee.transport.clockSongPosition(sixteenths: sixteenths)
        default:
            continue
        }
    }
}
