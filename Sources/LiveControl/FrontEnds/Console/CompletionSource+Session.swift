import HostCore
import JackIO

extension CompletionSource {
    /// The names a running session offers now. Called on the run loop's
    /// thread, which owns the session.
    init(session: LiveSession) {
        self.init(nodes: session.graph.nodes.map(Self.node), scenes: session.midiControl.scenes.map(\.name))
    }

    private static func node(_ node: GraphNode) -> Node {
        guard case .unit(let unit, _) = node.kind else { return Node(name: node.name, isPlugin: false) }
        let parameters = unit.parameters.map { parameter in
            Parameter(symbol: parameter.symbol,
                      values: parameter.isToggle ? ["true", "false"] : parameter.enumeration.map(\.label))
        }
        let presets = unit.presetLabels
        return Node(name: node.name, isPlugin: true, parameters: parameters, presets: presets)
    }
}
