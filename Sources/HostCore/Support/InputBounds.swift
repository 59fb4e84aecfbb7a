/// The documented bounds of numbers that come from outside — a patch, the
/// command line, the console, OSC, JSON — checked here, once per kind, so
/// every way in refuses the same values with the same sentence.
package enum InputBounds {
    /// The loudest gain anything accepts: a connection's, a file's, a gain node's.
    package static let maximumGainDecibels = 40.0
    /// A tempo, in beats per minute.
    package static let beatsPerMinute = 20.0...300.0

    /// Why `decibels` is refused as a gain, or nil if it is within bounds.
    /// Infinite and NaN gains (OSC floats can carry them) are refused too:
    /// no JSON could announce them.
    package static func gainRefusal(_ decibels: Double) -> String? {
        let bound = "at most +\(NumberText.format(maximumGainDecibels)) dB"
        guard decibels.isFinite else { return "a gain is a finite number of dB, \(bound), not \(signed(decibels)) dB" }
        guard decibels > maximumGainDecibels else { return nil }
        return "a gain is \(bound), not \(signed(decibels)) dB"
    }

    /// Why `beatsPerMinute` is refused as a tempo, or nil if it is within bounds.
    package static func tempoRefusal(_ beatsPerMinute: Double) -> String? {
        guard !self.beatsPerMinute.contains(beatsPerMinute) else { return nil }
        return "\(tempoRule), not \(NumberText.format(beatsPerMinute))"
    }

    /// "a tempo is 20 to 300 beats per minute"
    package static var tempoRule: String {
        "a tempo is \(NumberText.format(beatsPerMinute.lowerBound)) to \(NumberText.format(beatsPerMinute.upperBound)) beats per minute"
    }

    private static func signed(_ value: Double) -> String {
        value > 0 ? "+" + NumberText.format(value) : NumberText.format(value)
    }
}
