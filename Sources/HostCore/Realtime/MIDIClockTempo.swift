// Called by: the realtime thread (`readMIDIClock`, for each clock pulse on
// `fxhost:clock_in`); tests.

/// The tempo a MIDI clock's pulses (24 a quarter note) give: the mean
/// interval of the last `window` intervals, from the pulses' own frames.
/// Exact pulses give the exact tempo from the second pulse on (800 frames
/// apart at 48 kHz: 150 bpm); a pulse early or late by j frames moves the
/// mean by at most 2j/24 frames, so a jittery clock's tempo wobbles 24
/// times less than one interval's. The frames are JACK's frame time (32
/// bits): an interval is a wrapping difference, right across the wrap. A
/// new sample rate starts the count afresh. Pulses in cycles the server ran
/// without fxhost (an xrun) never arrive: told so, an interval of about k
/// held intervals counts as k pulses (see `pulse`), so an xrun moves neither
/// the tempo nor the beat count.
package struct MIDIClockTempo: Sendable {
    // Computed, not stored: a static's first use may lock, and the realtime thread uses these.
    @inlinable package static var pulsesPerQuarter: Int { 24 }
    /// Intervals averaged: one quarter note's (the ring holds one pulse more).
    @inlinable package static var window: Int { 24 }
    /// A longer silence starts a count afresh: an interval across it is no tempo.
    @inlinable package static var forgetSeconds: Double { 1 }
    /// Held pulse frames: a ring of `window + 1`, no allocation.
    @usableFromInline var frames = InlineArray<25, UInt32>(repeating: 0)
    @usableFromInline var count = 0
    @usableFromInline var newest = 0
    /// The pulses the last `pulse` counted: 1, or more when it filled in lost ones.
    package var lastPulses = 1
    /// The rate the held frames were counted at: frames at another (JACK's
    /// rate changed) are no interval with them.
    @usableFromInline var heldRate: Double = 0
    /// The tempos a clock may give, in quarter notes a minute (the bounds of `tempo`).
    @usableFromInline let lowest: Double
    @usableFromInline let highest: Double

    package init(bounds: ClosedRange<Double> = Tempo.beatsPerMinuteRange) {
        lowest = bounds.lowerBound
        highest = bounds.upperBound
    }

    /// Counts a pulse at frame `frame`; returns the tempo in quarter notes a
    /// minute the held pulses give (within the bounds), or nil before a second pulse.
    /// `cyclesMissed`: the server ran cycles without fxhost since the last
    /// pulse, whose pulses were lost. Then an interval of 1.5 or more held
    /// (mean) intervals counts as the nearest whole number k of them: k
    /// pulses, the lost ones evenly between; `lastPulses` says k. (Timestamps
    /// quantised to a period make a single interval too uneven for a closer
    /// match.) Without it an interval counts as it is: a clock that slows to
    /// half speed is half the tempo.
    @inlinable @_noLocks
    package mutating func pulse(atFrame frame: UInt32, sampleRate: Double, cyclesMissed: Bool = false) -> Double? {
        let capacity = frames.count
        lastPulses = 1
        if sampleRate != heldRate {
            heldRate = sampleRate
            count = 0
        }
        if count > 0 {
            let gap = frame &- frames[newest]
            // Two at one frame are no interval; keep the first.
            if gap == 0 { return tempo(sampleRate: sampleRate) }
            if Double(gap) > Self.forgetSeconds * sampleRate {
                count = 0
            } else if cyclesMissed, count >= 2 {
                let oldest = (newest - (count - 1) + capacity) % capacity
                let interval = Double(frames[newest] &- frames[oldest]) / Double(count - 1)
                let ratio = Double(gap) / interval
                // Bounded before converting (rounding by hand: `rounded()` may take locks).
                if ratio >= 1.5, ratio < 1e9 {
                    let multiple = Int(ratio + 0.5), last = frames[newest]
                    // The lost pulses evenly between; the window keeps only its last `capacity`.
                    for index in max(1, multiple - capacity + 1)..<multiple {
                        append(last &+ UInt32(Double(gap) * Double(index) / Double(multiple) + 0.5))
                    }
                    lastPulses = multiple
                }
            }
        }
        append(frame)
        return tempo(sampleRate: sampleRate)
    }

    @inlinable @_noLocks
    mutating func append(_ frame: UInt32) {
        newest = count == 0 ? 0 : (newest + 1) % frames.count
        frames[newest] = frame
        if count < frames.count { count += 1 }
    }

    /// The held pulses' tempo, or nil with fewer than two.
    @inlinable @_noLocks
    package func tempo(sampleRate: Double) -> Double? {
        guard count >= 2, sampleRate > 0 else { return nil }
        let capacity = frames.count
        let oldest = (newest - (count - 1) + capacity) % capacity
        let span = Double(frames[newest] &- frames[oldest])
        let quarters = sampleRate * 60 * Double(count - 1) / (Double(Self.pulsesPerQuarter) * span)
        return min(max(quarters, lowest), highest)
    }
}
