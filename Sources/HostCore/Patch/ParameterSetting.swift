/// One `params:` entry of a plugin node: a port symbol and its value.
package struct ParameterSetting: Sendable, Equatable, Codable {
    package var symbol: String
    package var value: ParameterValue
    /// Where the parameter's key was written.
    package var location: SourceLocation?

    package init(symbol: String, value: ParameterValue, location: SourceLocation? = nil) {
        self.symbol = symbol
        self.value = value
        self.location = location
    }
}
