/// One entry of a patch's `nodes:`: its name and what it is.
package struct NodeDeclaration: Sendable, Equatable {
    package var name: String
    package var kind: NodeKind
    /// Where the node's name was written.
    package var location: SourceLocation?

    package init(name: String, kind: NodeKind, location: SourceLocation? = nil) {
        self.name = name
        self.kind = kind
        self.location = location
    }
}
