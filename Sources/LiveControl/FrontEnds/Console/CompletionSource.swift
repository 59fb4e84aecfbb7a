/// What the console prompt completes words from: the command words, the
/// session's nodes with their parameters and presets, and the scenes.
/// The run loop builds a fresh one from the session for each Tab
/// (`CompletionSource(session:)`), so nodes a graph edit added are there;
/// a new kind of name is one more field here and one line there.
struct CompletionSource: Equatable, Sendable {
    struct Node: Equatable, Sendable {
        var name: String
        /// Plugin nodes take `set`, `bypass` and `preset`; others only wiring and taps.
        var isPlugin: Bool
        var parameters: [Parameter] = []
        var presets: [String] = []
    }

    struct Parameter: Equatable, Sendable {
        var symbol: String
        /// Words `set` takes besides numbers: a toggle's true/false, an enumeration's labels.
        var values: [String] = []
    }

    var commands: [String] = ConsoleCommand.names
    var nodes: [Node] = []
    var scenes: [String] = []

    func node(named name: String) -> Node? { nodes.first { $0.name == name } }
}
