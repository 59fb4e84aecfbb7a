import Foundation
/// Numbers as fxhost writes them in messages, listings and graph labels:
/// whole numbers without a decimal point (`2`, not `2.0`), others as the
/// shortest text of their own type, so a Float reads `0.1`, not the
/// `0.10000000149011612` its Double widening would print.
package enum NumberText {
    package static func format<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) -> String {
        let wide = Double(value)
        return wide == wide.rounded() && abs(wide) < 1e15 ? String(Int(wide)) : String(value)
    }

    /// Seconds as a clock, `M:SS.d` (`1:05.2`), for progress and take lengths.
    /// A time no clock can show (not finite, negative, or beyond a million
    /// hours) is `-:--.-` rather than a trap converting it.
    package static func clock(_ seconds: Double) -> String {
        guard seconds.isFinite, seconds >= 0, seconds < 3.6e9 else { return "-:--.-" }
        let total = Int(seconds.rounded(.down))
        return String(format: "%d:%02d.%d", total / 60, total % 60, Int((seconds - Double(total)) * 10))
    }
}
