/// One entry of a patch's `nodes:`: its name and what it is.
public struct NodeDeclaration: Sendable, Equatable {
    public var name: String
    public var kind: NodeKind
    /// Where the node's name was written.
    public var location: SourceLocation?

    public init(name: String, kind: NodeKind, location: SourceLocation? = nil) {
        self.name = name
        self.kind = kind
        self.location = location
    }
}
