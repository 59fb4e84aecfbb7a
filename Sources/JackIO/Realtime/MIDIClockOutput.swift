import CJack
import HostCore

// Called by: the realtime thread (`runLiveCycle` calls `sendMIDIClock` once a
// cycle, after the transport's position, when the patch has `clock: { output }`);
// the control thread sets the port before activation.

/// The transport's MIDI clock sent on `fxhost:clock_out`: 24 pulses a
/// quarter note (0xF8), each at the frame its beat position falls on, start
/// (0xFA, rolling from the song's start, or moved back to it while
/// rolling) or song position and continue (0xF2, 0xFB, rolling from
/// elsewhere), and stop (0xFC).
struct MIDIClockOutput {
    /// The JACK MIDI output (nil: the patch has no `clock: { output }`), set before the client is activated.
    var port: OpaquePointer? = nil
    /// Whether the last cycle rolled, the position's generation then, and
    /// the number of the next pulse to send (pulses counted from beat 0).
    var rolled = false
    var generation: UInt64 = 0
    var nextPulse: Int64 = 0
    /// MIDI clock's 24 pulses a quarter note (a literal: another module's static is a call the realtime checks refuse).
    static var pulsesPerQuarter: Double { 24 }

    /// Where pulse `pulse` falls, in frames from a cycle's first frame, when
    /// that frame is at `pulses` pulses (fractional) and a pulse lasts
    /// `framesPerPulse`: rounded to the nearest frame, never before the first.
    @_noLocks
    static func offset(ofPulse pulse: Int64, at pulses: Double, framesPerPulse: Double) -> Int64 {
        let exact = (Double(pulse) - pulses) * framesPerPulse
        if exact <= 0 { return 0 }
        return exact < 1e12 ? Int64(exact + 0.5) : Int64.max
    }

    /// The first pulse at or after `pulses` (its number), allowing for a
    /// rounding error far below a frame.
    @_noLocks
    static func firstPulse(atOrAfter pulses: Double) -> Int64 {
        let nudged = pulses - 1e-9
        let whole = Int64(nudged)
        return Double(whole) < nudged ? whole + 1 : whole
    }
}

/// Writes the cycle's clock into `fxhost:clock_out`: a start, continue or
/// stop at its first frame when the transport started or stopped, then
/// every pulse whose beat position falls inside the cycle. Pulses are
/// placed from the position's beats, not counted from the last one, so
/// their spacing is exact across cycles and follows a tempo change from
/// where it happens; after a jump (a relocation) the count starts again there.
@_noLocks
func sendMIDIClock(_ state: UnsafeMutablePointer<LiveEngineState>, position: TransportPosition, frames: UInt32) {
    guard let port = state.pointee.clockOutput.port,
          let buffer = _unsafePerformance({ jack_port_get_buffer(port, frames) }) else { return }
    _unsafePerformance { jack_midi_clear_buffer(buffer) }
    let rolling = position.speed != 0
    // Quarter notes: a clock counts 24 pulses each, whatever note the meter's beat is.
    let quarters = position.beat * 4 / Double(max(position.beatUnit, 1))
    let quartersPerMinute = position.beatsPerMinute * 4 / Double(max(position.beatUnit, 1))
    // Another client's numbers (a timebase master's) may be anything: beyond these, no clock.
    guard quarters.magnitude < 1e12, quartersPerMinute.isFinite, quartersPerMinute > 0 else { return }
    let pulses = quarters * MIDIClockOutput.pulsesPerQuarter
    let started = rolling && !state.pointee.clockOutput.rolled
    let jumped = position.generation != state.pointee.clockOutput.generation
    let atSongStart = pulses < 1e-9 && pulses > -1e-9
    if rolling && !started && jumped && atSongStart {
        // Moved back to the top while rolling (a clock followed started again): start over there too.
        writeClockByte(0xFA, at: 0, into: buffer)
    } else if rolling != state.pointee.clockOutput.rolled {
        state.pointee.clockOutput.rolled = rolling
        if !rolling {
            writeClockByte(0xFC, at: 0, into: buffer)
        } else if atSongStart {
            writeClockByte(0xFA, at: 0, into: buffer)
        } else {
            // Continue from the song position, in sixteenths (14 bits; beyond, the last one).
            let sixteenths = Int(min(max(quarters * 4, 0), 0x3FFF))
            if let room = _unsafePerformance({ jack_midi_event_reserve(buffer, 0, 3) }) {
                room[0] = 0xF2
                room[1] = UInt8(sixteenths & 0x7F)
                room[2] = UInt8(sixteenths >> 7)
            }
            writeClockByte(0xFB, at: 0, into: buffer)
        }
    }
    guard rolling else { return }
    if started || jumped {
        state.pointee.clockOutput.nextPulse = MIDIClockOutput.firstPulse(atOrAfter: pulses)
    }
    state.pointee.clockOutput.generation = position.generation
    let sampleRate = Double(state.pointee.sampleRate.load(ordering: .relaxed))
    let framesPerPulse = sampleRate * 60 / (quartersPerMinute * MIDIClockOutput.pulsesPerQuarter)
    guard framesPerPulse >= 1 else { return }
    while true {
        let pulse = state.pointee.clockOutput.nextPulse
        let offset = MIDIClockOutput.offset(ofPulse: pulse, at: pulses, framesPerPulse: framesPerPulse)
        guard offset < Int64(frames) else { return }
        // A full buffer: the pulse is lost, and the next ones still fall where they belong.
        writeClockByte(0xF8, at: UInt32(offset), into: buffer)
        state.pointee.clockOutput.nextPulse = pulse &+ 1
    }
}

/// Empties `fxhost:clock_out` for a cycle with nothing to render (JACK
/// repeats an output's last events otherwise).
@_noLocks
func clearMIDIClock(_ state: UnsafeMutablePointer<LiveEngineState>, frames: UInt32) {
    guard let port = state.pointee.clockOutput.port else { return }
    _unsafePerformance { if let buffer = jack_port_get_buffer(port, frames) { jack_midi_clear_buffer(buffer) } }
}

@_noLocks
private func writeClockByte(_ byte: UInt8, at frame: UInt32, into buffer: UnsafeMutableRawPointer) {
    guard let room = _unsafePerformance({ jack_midi_event_reserve(buffer, frame, 1) }) else { return }
    room[0] = byte
}
