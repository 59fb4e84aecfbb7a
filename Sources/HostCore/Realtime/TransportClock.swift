// Called by: the thread that renders (offline: `RenderJob` before each
// block; live: the realtime thread when no JACK timebase master runs) and
// the control thread that makes it.

/// The host's own transport: a tempo, a meter, rolling or stopped, and the
/// frame it has reached. Beats are counted from an anchor (the last change
/// of tempo, meter or speed), not summed block by block, so they do not
/// drift: at 120 bpm and 48 kHz beat n falls on frame 24000 × n exactly.
package struct TransportClock: Sendable {
    package var tempo: Tempo
    package var isRolling: Bool
    /// The transport frame the next `position(advancingBy:)` reports. (The
    /// three are set through the methods below, which keep the beats in step.)
    package var frame: Int64
    package var sampleRate: Double
    // Internal and usable from inlinable code: the realtime thread of
    // another module (JackIO) runs these methods, which must be inlinable.
    @usableFromInline var anchorFrame: Int64 = 0
    @usableFromInline var anchorBeat: Double = 0
    /// Beats into the anchor's bar, and that bar.
    @usableFromInline var anchorBarBeat: Double = 0
    @usableFromInline var anchorBar: Int64 = 0
    @usableFromInline var generation: UInt64 = 1

    package init(tempo: Tempo, sampleRate: Double, rolling: Bool = true, frame: Int64 = 0) {
        self.tempo = tempo
        self.sampleRate = sampleRate
        isRolling = rolling
        self.frame = 0
        anchor()
        // Starting later (a render from --from) starts from where the music is there.
        if frame != 0 { locate(frame) }
    }

    /// The position at the current frame, then moves on by `frames` when rolling.
    @inlinable @_noLocks
    package mutating func position(advancingBy frames: Int) -> TransportPosition {
        let position = current
        if isRolling { frame += Int64(frames) }
        return position
    }

    /// The position at the current frame.
    @inlinable
    package var current: TransportPosition {
        @_noLocks get {
        let beatsPerBar = Double(tempo.beatsPerBar)
        let elapsed = Double(frame - anchorFrame) * tempo.beatsPerMinute / (60 * sampleRate)
        let intoAnchorBar = anchorBarBeat + elapsed
        let bars = Self.floor(intoAnchorBar / beatsPerBar)
        let barsSoFar = anchorBar &+ Int64(bars)
        let unit = Int32(truncatingIfNeeded: tempo.beatUnit)
        let speed: Double = isRolling ? 1 : 0
        let barBeat = intoAnchorBar - bars * beatsPerBar
        return TransportPosition(frame: frame, speed: speed, beatsPerMinute: tempo.beatsPerMinute,
                                 beatsPerBar: beatsPerBar, beatUnit: unit, bar: barsSoFar, barBeat: barBeat,
                                 beat: anchorBeat + elapsed, generation: generation)
        }
    }

    /// A new tempo or meter from the current frame on.
    @inlinable @_noLocks
    package mutating func setTempo(_ newTempo: Tempo) {
        guard newTempo.beatsPerMinute != tempo.beatsPerMinute || newTempo.beatsPerBar != tempo.beatsPerBar
                || newTempo.beatUnit != tempo.beatUnit else { return }
        anchor()
        tempo = newTempo
    }

    /// A new sample rate (live, JACK's changed): the beats go on from here.
    @inlinable @_noLocks
    package mutating func setSampleRate(_ rate: Double) {
        guard rate != sampleRate, rate > 0 else { return }
        anchor()
        sampleRate = rate
    }

    @inlinable @_noLocks
    package mutating func setRolling(_ rolling: Bool) {
        guard rolling != isRolling else { return }
        anchor()
        isRolling = rolling
    }

    /// Jumps to `newFrame`, keeping the tempo: beats as if it had rolled there.
    @inlinable @_noLocks
    package mutating func locate(_ newFrame: Int64) {
        let beatsPerBar = Double(tempo.beatsPerBar)
        let elapsed = Double(newFrame - anchorFrame) * tempo.beatsPerMinute / (60 * sampleRate)
        let intoAnchorBar = anchorBarBeat + elapsed
        let bars = Self.floor(intoAnchorBar / beatsPerBar)
        anchorBeat += elapsed
        anchorBar += Int64(bars)
        anchorBarBeat = intoAnchorBar - bars * beatsPerBar
        anchorFrame = newFrame
        frame = newFrame
        generation &+= 1
    }

    /// Moves to `beat` (beats since the start) at the current frame, keeping
    /// the tempo and meter: a MIDI clock's start (beat 0) or song position.
    @inlinable @_noLocks
    package mutating func relocate(toBeat beat: Double) {
        let beatsPerBar = Double(tempo.beatsPerBar)
        let bars = Self.floor(beat / beatsPerBar)
        anchorFrame = frame
        anchorBeat = beat
        anchorBar = Int64(bars)
        anchorBarBeat = beat - bars * beatsPerBar
        generation &+= 1
    }

    /// Makes the current frame the anchor, and counts a jump.
    @inlinable @_noLocks
    mutating func anchor() {
        let position = current
        anchorFrame = frame
        anchorBeat = position.beat
        anchorBar = position.bar
        anchorBarBeat = position.barBeat
        generation &+= 1
    }

    /// The largest whole number not above `value` (`rounded(.down)` touches
    /// a rounding-rule type the realtime checks refuse).
    @inlinable @_noLocks
    static func floor(_ value: Double) -> Double {
        let truncated = Double(Int64(value))
        return truncated > value ? truncated - 1 : truncated
    }
}
