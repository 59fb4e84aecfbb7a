/// One connection (from `chain` or `connect`), with its gain in dB.
public struct ConnectionDeclaration: Sendable, Equatable {
    public var from: PortReference
    public var to: PortReference
    public var gainDecibels: Double
    public var location: SourceLocation?

    public init(from: PortReference, to: PortReference, gainDecibels: Double = 0, location: SourceLocation? = nil) {
        self.from = from
        self.to = to
        self.gainDecibels = gainDecibels
        self.location = location
    }
}
