/// Tap tempo (`tempo tap`, a footswitch mapped to `tempo:tap`): the times of
/// the taps in, a tempo out. The tempo is 60 over the mean of the last
/// `keptIntervals` intervals between taps, so it needs at least two taps;
/// a pause longer than `forgetSeconds` starts a new count. A tempo outside
/// `InputBounds.beatsPerMinute` is clamped to it (taps 10 ms apart give 300
/// bpm): a foot that taps too fast still gets the nearest tempo there is.
/// Times are seconds on any one clock that never runs backwards (the
/// monotonic clock, or JACK frames over the rate); the caller keeps one
/// of these per clock.
package struct TapTempo: Sendable, Equatable {
    /// How many intervals the mean is taken over: enough to smooth a foot, few enough to follow a change.
    package static let keptIntervals = 4
    /// A tap after a longer pause starts a new count.
    package static let forgetSeconds = 2.0

    /// The current count's tap times, oldest first, at most `keptIntervals + 1`.
    private var times: [Double] = []

    package init() {}

    /// Taps in the current count (1 after the first tap, or after a pause).
    package var taps: Int { times.count }

    /// Counts a tap at `seconds` and returns the tempo it gives, in beats per
    /// minute, or nil when it is the first of a count (tap again). A time that
    /// is not finite is ignored; one earlier than the last tap, or more than
    /// `forgetSeconds` after it, starts a new count; one at the same time as
    /// the last is the same tap, sent twice.
    package mutating func tap(at seconds: Double) -> Double? {
        guard seconds.isFinite else { return tempo }
        if let last = times.last {
            if seconds == last { return tempo }
            if seconds < last || seconds - last > Self.forgetSeconds { times.removeAll() }
        }
        times.append(seconds)
        if times.count > Self.keptIntervals + 1 { times.removeFirst(times.count - Self.keptIntervals - 1) }
        return tempo
    }

    /// The tempo the current count gives, or nil before its second tap.
    package var tempo: Double? {
        guard let first = times.first, let last = times.last, times.count >= 2 else { return nil }
        // The mean of the intervals is the span over their count.
        let mean = (last - first) / Double(times.count - 1)
        let bounds = InputBounds.beatsPerMinute
        return min(max(60 / mean, bounds.lowerBound), bounds.upperBound)
    }
}
