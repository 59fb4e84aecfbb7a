public struct ParameterInfo: Sendable, Equatable {
    public var symbol: String
    public var name: String
    public var minimum: Float
    public var maximum: Float
    public var defaultValue: Float
    public var isToggle: Bool
    public var isInteger: Bool
    /// Enumeration labels and their values (lv2:enumeration scale points).
    public var enumeration: [(label: String, value: Float)]
    /// Named values of a port that is not an enumeration (lv2:scalePoint):
    /// points worth reaching at once, while any value in the range is valid.
    public var scalePoints: [(label: String, value: Float)]
    /// Unit label, such as "dB" or "ms", when the plugin says.
    public var unit: String?
    /// The plugin asks for a logarithmic scale (LV2 `pprops:logarithmic`):
    /// a control moves through it by ratios (frequencies, times), not steps.
    public var isLogarithmic: Bool

    public init(symbol: String, name: String, minimum: Float, maximum: Float, defaultValue: Float,
                isToggle: Bool = false, isInteger: Bool = false,
                enumeration: [(label: String, value: Float)] = [], unit: String? = nil, isLogarithmic: Bool = false,
                scalePoints: [(label: String, value: Float)] = []) {
        self.symbol = symbol
        self.name = name
        self.minimum = minimum
        self.maximum = maximum
        self.defaultValue = defaultValue
        self.isToggle = isToggle
        self.isInteger = isInteger
        self.enumeration = enumeration
        self.unit = unit
        self.isLogarithmic = isLogarithmic
        self.scalePoints = scalePoints
    }

    public static func == (lhs: ParameterInfo, rhs: ParameterInfo) -> Bool {
        lhs.symbol == rhs.symbol && lhs.name == rhs.name && lhs.minimum == rhs.minimum
            && lhs.maximum == rhs.maximum && lhs.defaultValue == rhs.defaultValue
            && lhs.isToggle == rhs.isToggle && lhs.isInteger == rhs.isInteger
            && lhs.enumeration.map(\.label) == rhs.enumeration.map(\.label)
            && lhs.enumeration.map(\.value) == rhs.enumeration.map(\.value) && lhs.unit == rhs.unit
            && lhs.isLogarithmic == rhs.isLogarithmic
            && lhs.scalePoints.map(\.label) == rhs.scalePoints.map(\.label)
            && lhs.scalePoints.map(\.value) == rhs.scalePoints.map(\.value)
    }
}
