// Called by: the realtime thread only (`LiveTransport`'s clock methods, from
// `readMIDIClock`, then its position, once a cycle).

/// What a followed MIDI clock has said, kept from its messages to the
/// cycle's position: its tempo, through a dead-band, and where its pulses
/// fall in the song (counted from a start or a song position), so that
/// `LiveTransport` places its beats on them.
struct MIDIClockFollower {
    /// The tempo followed, in quarter notes a minute (0: none yet), and how
    /// many estimates in a row fell above (+) or below (−) it inside the dead-band.
    var tempo: Double = 0
    var side = 0
    /// Where the clock's next pulse falls, in quarter notes from the song's
    /// start (nil: unknown, no start or song position seen), and whether
    /// pulses count (the clock rolls).
    var nextQuarter: Double? = nil
    var counting = false
    /// A start (0xFA), or a continue (0xFB) from a known place, waits for
    /// the next pulse, which falls at `nextQuarter`; the transport rolls from that pulse.
    var waitsForPulse = false
    var startsRolling = false
    /// This cycle's last counted pulse: its offset in the cycle (-1: none),
    /// its place in quarter notes, and whether the transport is placed on it
    /// whatever the error (a start, or a new tempo, which is a jump anyway).
    var pulseOffset = -1
    var pulseQuarter: Double = 0
    var placeOnPulse = false

    /// A pulse `offset` frames into the cycle; `estimate` is the tempo the
    /// pulses give so far (nil before a second pulse); `pulses` more than 1:
    /// that many counted, the others lost in an xrun just before it.
    /// `afterMissedCycles`: the server ran cycles without fxhost since the
    /// last pulse, so the transport (counting the frames it played) is
    /// behind: it is placed on this pulse, as after a jump. `lostBeforeStart`:
    /// those cycles came before the start or continue waiting for this pulse,
    /// so it is still that start's first; else the first was lost with them.
    @_noLocks
    mutating func pulse(estimate: Double?, offset: Int, pulses: Int = 1, afterMissedCycles: Bool = false,
                        lostBeforeStart: Bool = false) {
        var adopted = afterMissedCycles
        var lost = max(pulses - 1, 0)
        if let estimate, follow(estimate) { adopted = true }
        if waitsForPulse {
            waitsForPulse = false
            startsRolling = true
            counting = true
            adopted = true
            if lostBeforeStart { lost = 0 }  // pulses lost before the start are none of its
        }
        guard counting, let quarter = nextQuarter else { return }
        pulseOffset = max(offset, 0)
        pulseQuarter = quarter + Double(lost) / 24
        placeOnPulse = placeOnPulse || adopted
        nextQuarter = pulseQuarter + 1.0 / 24
    }

    /// Follows a new tempo estimate through a dead-band, since every change
    /// re-anchors the transport and sends plugins a new position, and a real
    /// clock's estimate moves a little on every pulse: a change beyond 1 % at
    /// once, a smaller one once 24 estimates in a row (a quarter note) lie on
    /// the same side, which jitter alone practically never does. True when followed.
    @_noLocks
    mutating func follow(_ estimate: Double) -> Bool {
        let difference = estimate - tempo
        guard tempo > 0, difference.magnitude <= tempo * 0.01 else {
            tempo = estimate
            side = 0
            return true
        }
        side = difference > 0 ? max(side, 0) + 1 : difference < 0 ? min(side, 0) - 1 : 0
        guard side >= 24 || side <= -24 else { return false }
        tempo = estimate
        side = 0
        return true
    }

    /// Start (0xFA): beat 0 at the next pulse.
    @_noLocks
    mutating func start() {
        nextQuarter = 0
        waitsForPulse = true
        counting = false
        pulseOffset = -1
    }

    /// Continue (0xFB): from the next pulse, where the count stopped (or the
    /// song position says). False when no place is known (no start or song
    /// position seen): the transport rolls on at once from where it is.
    @_noLocks
    mutating func resume() -> Bool {
        guard nextQuarter != nil else { return false }
        waitsForPulse = true
        counting = false
        return true
    }

    /// Stop (0xFC): pulses no longer count.
    @_noLocks
    mutating func stop() {
        waitsForPulse = false
        counting = false
    }

    /// Song position (0xF2): the next pulse counted falls at `quarters`.
    @_noLocks
    mutating func songPosition(quarters: Double) {
        nextQuarter = quarters
        pulseOffset = -1
    }

    /// The beat the transport moves to at the cycle's first frame so that
    /// the cycle's last pulse falls on its place, or nil to leave it: it is
    /// at `beat` there, `beatsPerFrame` on, `beatUnit` the meter's note. It
    /// moves when told to or when off by more than a pulse (a 24th of a
    /// quarter note): jitter alone leaves it. Forgets the cycle's pulse.
    @_noLocks
    mutating func placement(beat: Double, rolling: Bool, beatsPerFrame: Double, beatUnit: Int) -> Double? {
        guard pulseOffset >= 0 else { return nil }
        let beatsPerQuarter = Double(max(beatUnit, 1)) / 4
        let target = pulseQuarter * beatsPerQuarter - Double(pulseOffset) * beatsPerFrame
        let place = placeOnPulse || (beat - target).magnitude > beatsPerQuarter / 24
        pulseOffset = -1
        placeOnPulse = false
        return rolling && place ? target : nil
    }
}
