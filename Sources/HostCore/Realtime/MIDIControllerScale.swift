import Glibc

// Called by: the realtime thread (a live session's MIDI table scales each
// controller value with it) and the control thread (learn, tests).

/// What a controller value 0...127 becomes for one mapped parameter: a
/// point of the range on the curve, then stepped as the parameter is
/// (whole numbers, or a switch at 64 for toggles and bypass).
package struct MIDIControllerScale: Sendable, Equatable {
        package enum Stepping: UInt8, Sendable {
        /// Any value in the range (the only kind the host smooths).
        case continuous
        /// Rounded to the nearest whole number (integer and enumeration parameters).
        case integer
        /// `high` from 64 on, else `low`: toggles and bypass.
        case toggle
    }

    package var low: Float
    package var high: Float
    package var curve: MIDICurve
    package var stepping: Stepping

    @inlinable
    package init(low: Float, high: Float, curve: MIDICurve = .linear, stepping: Stepping = .continuous) {
        self.low = low
        self.high = high
        self.curve = curve
        self.stepping = stepping
    }

    /// The value for `controller` (0...127; anything else is clamped).
    @inlinable @_noLocks
    package func value(controller: Int) -> Float {
        let clamped = min(max(controller, 0), 127)
        if stepping == .toggle { return clamped >= 64 ? high : low }
        let position = Float(clamped) / 127
        var result: Float
        switch curve {
        case .linear: result = low + (high - low) * position
        case .logarithmic: result = low * Self.power(high / low, position)
        }
        // The ends exactly: a curve's rounding must not leave the range.
        if clamped == 0 { result = low } else if clamped == 127 { result = high }
        if stepping == .integer { result = _unsafePerformance { Glibc.roundf(result) } }
        return result
    }

    /// `base` to the `exponent`, in double precision (an audited C call).
    @inlinable @_noLocks
    package static func power(_ base: Float, _ exponent: Float) -> Float {
        _unsafePerformance { Float(Glibc.pow(Double(base), Double(exponent))) }
    }
}
