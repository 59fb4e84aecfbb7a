/// One entry of a patch's `taps:`: a node output recorded to a file.
package struct TapDeclaration: Sendable, Equatable {
    /// The node (or node:N) whose output is recorded.
    package var at: PortReference
    /// Output file; the format follows its extension.
    package var file: String
    package var location: SourceLocation?

    package init(at: PortReference, file: String, location: SourceLocation? = nil) {
        self.at = at
        self.file = file
        self.location = location
    }
}
