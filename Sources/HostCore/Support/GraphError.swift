/// A mistake in how a graph is described — in a patch file, a `--chain`, or
/// code calling `AudioGraph` — or one found compiling it: where (a patch
/// file's `file:line:column`, when there is one), what is wrong and, when
/// known, what was meant.
public struct GraphError: Error, Equatable, Sendable, CustomStringConvertible {
    public var location: SourceLocation?
    public var message: String
    public var suggestion: String?

    public init(_ message: String, at location: SourceLocation? = nil, suggestion: String? = nil) {
        self.message = message
        self.location = location
        self.suggestion = suggestion
    }

    /// A unit's refusal for a node (its plugin, preset or value), at the place it is about.
    package init(node: String, _ error: UnitError, at location: SourceLocation?) {
        self.init("node `\(node)`: \(error.message)", at: location, suggestion: error.suggestion)
    }

    public var description: String {
        var text = location.map { "\($0): " } ?? ""
        text += message
        if let suggestion { text += " (\(suggestion))" }
        return text
    }
}
