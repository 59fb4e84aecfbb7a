/// One `params:` entry of a plugin node: a port symbol and its value.
public struct ParameterSetting: Sendable, Equatable {
    public var symbol: String
    public var value: ParameterValue
    /// Where the parameter's key was written.
    public var location: SourceLocation?

    public init(symbol: String, value: ParameterValue, location: SourceLocation? = nil) {
        self.symbol = symbol
        self.value = value
        self.location = location
    }
}
