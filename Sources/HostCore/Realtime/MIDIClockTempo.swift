// Called by: the realtime thread (`readMIDIClock`, for each clock pulse on
// `fxhost:clock_in`); tests.

/// The tempo a MIDI clock's pulses (24 a quarter note) give: the mean
/// interval of the last `window` intervals, from the pulses' own frames.
/// Exact pulses give the exact tempo from the second pulse on (800 frames
/// apart at 48 kHz: 150 bpm); a pulse early or late by j frames moves the
/// mean by at most 2j/24 frames, so a jittery clock's tempo wobbles 24
/// times less than one interval's. The frames are JACK's frame time (32
/// bits): an interval is a wrapping difference, right across the wrap. A
/// new sample rate starts the count afresh.
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
    @inlinable @_noLocks
    package mutating func pulse(atFrame frame: UInt32, sampleRate: Double) -> Double? {
        let capacity = frames.count
        if sampleRate != heldRate {
            heldRate = sampleRate
            count = 0
        }
        if count > 0 {
            let gap = frame &- frames[newest]
            // Two at one frame are no interval; keep the first.
            if gap == 0 { return tempo(sampleRate: sampleRate) }
            if Double(gap) > Self.forgetSeconds * sampleRate { count = 0 }
        }
        newest = count == 0 ? 0 : (newest + 1) % capacity
        frames[newest] = frame
        if count < capacity { count += 1 }
        return tempo(sampleRate: sampleRate)
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
