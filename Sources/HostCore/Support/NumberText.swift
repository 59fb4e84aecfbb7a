/// Numbers as fxhost writes them in messages, listings and graph labels:
/// whole numbers without a decimal point (`2`, not `2.0`), others as the
/// shortest text of their own type, so a Float reads `0.1`, not the
/// `0.10000000149011612` its Double widening would print.
package enum NumberText {
    package static func format<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ value: Number) -> String {
        let wide = Double(value)
        return wide == wide.rounded() && abs(wide) < 1e15 ? String(Int(wide)) : String(value)
    }
}
