import Foundation

/// Gain conversions. -6 dB is ×0.501187.
package enum Decibels {
    @inlinable package static func toLinear(_ decibels: Double) -> Double { pow(10, decibels / 20) }
    @inlinable package static func fromLinear(_ linear: Double) -> Double { linear > 0 ? 20 * log10(linear) : -.infinity }

    /// The quietest level a peak is shown at: the smallest step of 24-bit
    /// audio, 2^-23 of full scale (-138.5 dBFS). A reverb's tail decaying in
    /// floating point reaches -220 dBFS and lower, which no converter plays
    /// and no meter shows: below this step a peak reads as silence.
    package static let quietestPeak = 1.0 / 8_388_608

    /// A peak in dBFS, -infinity for silence (below `quietestPeak`).
    package static func peak(fromLinear linear: Double) -> Double {
        linear >= quietestPeak ? fromLinear(linear) : -.infinity
    }

    /// A peak as meters and summaries print it: "-6.0", or "-inf" for silence.
    package static func peakText(_ decibels: Double?) -> String {
        guard let decibels, decibels > -.infinity else { return "-inf" }
        return String(format: "%.1f", decibels)
    }
}
