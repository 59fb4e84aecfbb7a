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

    /// What a cycle's clock begins with, at its first frame.
    enum Opening: Equatable {
        case nothing, start, stop
        /// Song position (sixteenths, 14 bits) then continue.
        case continueAt(sixteenths: Int)
    }

    /// The cycle's opening message, and where the pulses go on from: the
    /// transport at `pulses` pulses (fractional, from beat 0), rolling or
    /// not, at position generation `generation`.
    @_noLocks
    mutating func open(rolling: Bool, pulses: Double, generation newGeneration: UInt64) -> Opening {
        let started = rolling && !rolled
        let jumped = newGeneration != generation
        generation = newGeneration
        // Within a pulse before the start (a followed clock's start places
        // beat 0 at its first pulse, inside the cycle) counts as the start.
        let atSongStart = pulses < 1e-9 && pulses > -1
        var opening = Opening.nothing
        if rolling != rolled {
            rolled = rolling
            if !rolling { return .stop }
        }
        guard rolling else { return .nothing }
        if started || (jumped && atSongStart) {
            if atSongStart {
                opening = .start
                nextPulse = 0
            } else {
                // Devices chained resume at the song position sent, a
                // sixteenth (6 pulses): the pulses go on from there, none before.
                let sixteenths = Swift.min(Swift.max(Self.firstPulse(atOrAfter: pulses / 6), 0), 0x3FFF)
                opening = .continueAt(sixteenths: Int(sixteenths))
                // (Beyond the last position, from the pulse due: no burst to catch up.)
                nextPulse = sixteenths < 0x3FFF ? 6 * sixteenths
                    : Swift.max(6 * sixteenths, Self.firstPulse(atOrAfter: pulses))
            }
        } else if jumped && (pulses - Double(nextPulse)).magnitude > 1 {
            // A real discontinuity (a relocation): the count starts again there.
            // Within a pulse (a new tempo) the pulse due is kept: one whose exact
            // offset rounded to the cycle's end is due at the next cycle's start.
            nextPulse = Self.firstPulse(atOrAfter: pulses)
        }
        return opening
    }

    /// The offset in the cycle (`frames` long, its first frame at `pulses`
    /// pulses) of the next pulse due, counting it sent; nil when the next
    /// falls after the cycle.
    @_noLocks
    mutating func nextPulseOffset(at pulses: Double, framesPerPulse: Double, frames: UInt32) -> UInt32? {
        let offset = Self.offset(ofPulse: nextPulse, at: pulses, framesPerPulse: framesPerPulse)
        guard offset < Int64(frames) else { return nil }
        nextPulse &+= 1
        return UInt32(offset)
    }

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
/// where it happens; after a relocation of more than a pulse the count starts again there.
@_noLocks
func sendMIDIClock(_ state: UnsafeMutablePointer<LiveEngineState>, position: TransportPosition, frames: UInt32) {
    guard let port = state.pointee.clockOutput.port,
          let buffer = _unsafePerformance({ jack_port_get_buffer(port, frames) }) else { return }
    _unsafePerformance { jack_midi_clear_buffer(buffer) }
    let rolling = position.speed != 0
    // Quarter notes: a clock counts 24 pulses each, whatever note the meter's beat is.
    let quarters = position.beat * 4 / Double(max(position.beatUnit, 1))
    let quartersPerMinute = position.beatsPerMinute * 4 / Double(max(position.beatUnit, 1))
    // Another client's numbers (a timebase master's) may be anything: beyond these, no pulses (a stop still goes).
    guard quarters.magnitude < 1e12, quartersPerMinute.isFinite, quartersPerMinute > 0 else {
        if !rolling && state.pointee.clockOutput.rolled {
            state.pointee.clockOutput.rolled = false
            writeClockByte(0xFC, at: 0, into: buffer)
        }
        return
    }
    let pulses = quarters * MIDIClockOutput.pulsesPerQuarter
    switch state.pointee.clockOutput.open(rolling: rolling, pulses: pulses, generation: position.generation) {
    case .nothing: break
    case .start: writeClockByte(0xFA, at: 0, into: buffer)
    case .stop: writeClockByte(0xFC, at: 0, into: buffer)
    case .continueAt(let sixteenths):
        if let room = _unsafePerformance({ jack_midi_event_reserve(buffer, 0, 3) }) {
            room[0] = 0xF2
            room[1] = UInt8(sixteenths & 0x7F)
            room[2] = UInt8((sixteenths >> 7) & 0x7F)
        }
        writeClockByte(0xFB, at: 0, into: buffer)
    }
    guard rolling else { return }
    let sampleRate = Double(state.pointee.sampleRate.load(ordering: .relaxed))
    let framesPerPulse = sampleRate * 60 / (quartersPerMinute * MIDIClockOutput.pulsesPerQuarter)
    guard framesPerPulse >= 1 else { return }
    // A full buffer: the pulse is lost, and the next ones still fall where they belong.
    while let offset = state.pointee.clockOutput.nextPulseOffset(at: pulses, framesPerPulse: framesPerPulse,
                                                                  frames: frames) {
        writeClockByte(0xF8, at: offset, into: buffer)
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
