import Foundation

/// Gain conversions. -6 dB is ×0.501187.
package enum Decibels {
    @inlinable package static func toLinear(_ decibels: Double) -> Double { pow(10, decibels / 20) }
    @inlinable package static func fromLinear(_ linear: Double) -> Double { linear > 0 ? 20 * log10(linear) : -.infinity }
}
