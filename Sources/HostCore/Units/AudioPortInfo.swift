public struct AudioPortInfo: Sendable, Equatable {
    public var symbol: String
    public var name: String

    public init(symbol: String, name: String) {
        self.symbol = symbol
        self.name = name
    }
}
