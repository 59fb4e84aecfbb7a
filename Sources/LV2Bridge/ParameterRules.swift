import HostCore

/// How a control port's description becomes a `ParameterInfo`, and which
/// values a patch may give it.
enum ParameterRules {
    static func info(_ port: PortDescription) -> ParameterInfo {
        var minimum = port.minimum ?? (port.isToggle ? 0 : -Float.greatestFiniteMagnitude)
        var maximum = port.maximum ?? (port.isToggle ? 1 : Float.greatestFiniteMagnitude)
        if minimum > maximum { swap(&minimum, &maximum) }
        let fallback = port.minimum ?? 0
        let defaultValue = min(max(port.defaultValue ?? fallback, minimum), maximum)
        return ParameterInfo(
            symbol: port.symbol, name: port.name, minimum: minimum, maximum: maximum,
            defaultValue: defaultValue, isToggle: port.isToggle, isInteger: port.isInteger,
            enumeration: port.isEnumeration ? port.scalePoints.map { ($0.label, $0.value) } : [],
            unit: port.unit, isLogarithmic: port.isLogarithmic,
            scalePoints: port.isEnumeration ? [] : port.scalePoints.map { ($0.label, $0.value) })
    }

    /// The number to write for `value`, or an error sentence saying why not.
    static func check(_ value: ParameterValue, for parameter: ParameterInfo) throws(UnitError) -> Float {
        let name = "`\(parameter.symbol)`"
        switch value {
        case .toggle(let on):
            guard parameter.isToggle else {
                throw UnitError("\(name) is not a toggle; give it a number in its range \(range(parameter))")
            }
            return on ? 1 : 0
        case .label(let label):
            guard !parameter.enumeration.isEmpty else {
                throw UnitError("\(name) takes a number in its range \(range(parameter)), not \"\(label)\"")
            }
            if let match = parameter.enumeration.first(where: { $0.label.lowercased() == label.lowercased() }) {
                return match.value
            }
            throw UnitError("\(name) has no option \"\(label)\"; its options are: \(labels(parameter))",
                            suggestion: Suggestion.didYouMean(label, in: parameter.enumeration.map(\.label)))
        case .number(let number):
            let text = NumberText.format(number)
            if parameter.isToggle {
                guard number == 0 || number == 1 else {
                    throw UnitError("\(name) is a toggle and takes 0 or 1 (or true/false), not \(text)")
                }
                return Float(number)
            }
            if !parameter.enumeration.isEmpty {
                guard let match = parameter.enumeration.first(where: { $0.value == Float(number) }) else {
                    throw UnitError("\(name) is \(text), which is none of its options: \(labels(parameter))")
                }
                return match.value
            }
            if parameter.isInteger && number != number.rounded() {
                throw UnitError("\(name) takes whole numbers, not \(text)")
            }
            guard number.isFinite, Float(number) >= parameter.minimum, Float(number) <= parameter.maximum else {
                throw UnitError("\(name) is \(text), outside its range \(range(parameter))")
            }
            return Float(number)
        }
    }

    static func range(_ parameter: ParameterInfo) -> String {
        "\(NumberText.format(parameter.minimum))…\(NumberText.format(parameter.maximum))"
    }

    /// `"Low" (0), "High" (1)`.
    static func labels(_ parameter: ParameterInfo) -> String {
        parameter.enumeration.map { "\"\($0.label)\" (\(NumberText.format($0.value)))" }.joined(separator: ", ")
    }
}
