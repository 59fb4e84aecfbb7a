/// The step before compiling: each unit node's instances for one format,
/// made now where they do not exist yet, with their kernels and latency.
/// This is the only part of a compile that touches units (it may make
/// instances and run them once to learn their latency); the compiler reads
/// what it returns and changes nothing.
struct PreparedUnits {
    /// By node index; nil for nodes that are not units.
    private let byNode: [PreparedUnit?]

    init(_ resolved: ResolvedGraph, format: RenderFormat) throws(GraphError) {
        var byNode = [PreparedUnit?](repeating: nil, count: resolved.graph.nodes.count)
        for nodeIndex in resolved.order {
            let node = resolved.graph.nodes[nodeIndex]
            guard case .unit(let unit, _) = node.kind else { continue }
            let count = resolved.layouts[nodeIndex].instances
            // A plugin that crashes while it is set up is named by this node.
            CrashReport.settingUp(node: node.name, plugin: unit.displayName)
            defer { CrashReport.leave() }
            do {
                var prepared = try unit.prepareInstances(count: count, format: format)
                prepared.kernels = Array(prepared.kernels.prefix(count))
                byNode[nodeIndex] = prepared
            } catch {
                throw GraphError("`\(node.name)` (\(unit.displayName)) could not be started: \(error.message)",
                                 at: node.location, suggestion: error.suggestion)
            }
        }
        self.byNode = byNode
    }

    /// The prepared instances of unit node `nodeIndex`.
    subscript(nodeIndex: Int) -> PreparedUnit { byNode[nodeIndex]! }
}
