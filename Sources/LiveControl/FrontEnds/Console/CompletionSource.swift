/// What the console prompt completes words from: the command words, the
/// session's nodes with their parameters and presets, and the scenes.
/// The run loop builds a fresh one from the session for each Tab
/// (`CompletionSource(session:)`), so nodes a graph edit added are there;
/// a new kind of name is one more field here and one line there.
package struct CompletionSource: Equatable, Sendable, Codable {
    package struct Node: Equatable, Sendable, Codable {
        package var name: String
        /// Plugin nodes take `set`, `bypass` and `preset`; others only wiring and taps.
        package var isPlugin: Bool
        package var parameters: [Parameter] = []
        package var presets: [String] = []
    }

    package struct Parameter: Equatable, Sendable, Codable {
        package var symbol: String
        /// Words `set` takes besides numbers: a toggle's true/false, an enumeration's labels.
        package var values: [String] = []
    }

    package var commands: [String] = ConsoleCommand.names
    package var nodes: [Node] = []
    package var scenes: [String] = []
    /// A setlist run's patches, for `load`.
    package var patches: [String] = []

    func node(named name: String) -> Node? { nodes.first { $0.name == name } }
}
