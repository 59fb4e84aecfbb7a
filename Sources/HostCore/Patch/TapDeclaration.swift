/// One entry of a patch's `taps:`: a node output recorded to a file.
public struct TapDeclaration: Sendable, Equatable {
    /// The node (or node:N) whose output is recorded.
    public var at: PortReference
    /// Output file; the format follows its extension.
    public var file: String
    public var location: SourceLocation?

    public init(at: PortReference, file: String, location: SourceLocation? = nil) {
        self.at = at
        self.file = file
        self.location = location
    }
}
