import Glibc

extension MIDIControllerScale {
    /// The controller value (0...127) whose `value(controller:)` is nearest
    /// `value` on this scale: what MIDI feedback sends so a controller shows
    /// a value set elsewhere. Linear: round(127 × (v − low)/(high − low));
    /// log: the same on log(v/low)/log(high/low); toggle: 127 from the
    /// midpoint of `low` and `high`, else 0. Out of range is clamped; not a
    /// number, or an empty range, gives 0.
    @inlinable @_noLocks
    package func controller(value: Float) -> UInt8 {
        guard value.isFinite, low.isFinite, high.isFinite, high != low else { return 0 }
        if case .toggle = stepping { return value >= (low + high) / 2 ? 127 : 0 }
        var position: Double
        switch curve {
        case .linear:
            position = (Double(value) - Double(low)) / (Double(high) - Double(low))
        case .logarithmic:
            guard value > 0, low > 0, high > 0 else { return 0 }
            position = _unsafePerformance { Glibc.log(Double(value) / Double(low)) / Glibc.log(Double(high) / Double(low)) }
        }
        guard position.isFinite else { return 0 }
        position = min(max(position, 0), 1)
        return UInt8(_unsafePerformance { Glibc.round(position * 127) })
    }
}
