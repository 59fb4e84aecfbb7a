public struct GraphConnection {
    public var source: String
    public var sourcePort: PortSelector
    public var destination: String
    public var destinationPort: PortSelector
    public var gainDecibels: Double
    public var location: SourceLocation?
    /// Where each end was written, for errors about that end's port.
    public var sourceLocation: SourceLocation?
    public var destinationLocation: SourceLocation?
}
