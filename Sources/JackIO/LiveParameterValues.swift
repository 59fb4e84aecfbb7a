import HostCore

/// The input control values of a live session's plugin nodes, as the
/// control thread last set them: what `status` reports and `save` writes.
///
/// Kept on the control thread rather than read back from the units, because
/// the realtime thread stores the values (between blocks) into memory the
/// control thread must not read while a plan plays. A value the realtime
/// thread sets on its own (a MIDI controller) reaches the record through
/// `LiveSession.noteParameterValue`, from the control thread that drains
/// what the realtime thread did.
struct LiveParameterValues {
    private(set) var byNode: [String: [String: Float]] = [:]

    /// Takes a value for every input control of every plugin node of
    /// `graph` not recorded yet, reading its unit: only for units no plan
    /// plays yet (the session's first graph, nodes a graph edit adds).
    /// Nodes `graph` no longer has are dropped.
    mutating func follow(_ graph: AudioGraph) {
        var kept: [String: [String: Float]] = [:]
        for node in graph.nodes {
            guard case .unit(let unit, _) = node.kind else { continue }
            if let known = byNode[node.name] {
                kept[node.name] = known
                continue
            }
            kept[node.name] = Self.values(of: unit)
        }
        byNode = kept
    }

    /// Reads every input control of `node` from `unit` again: only while no
    /// plan plays it (a preset restored while the session plays silence).
    mutating func reread(_ node: String, from unit: any ProcessingUnit) {
        byNode[node] = Self.values(of: unit)
    }

    /// Every input control of `unit` as it holds it now.
    private static func values(of unit: any ProcessingUnit) -> [String: Float] {
        var values: [String: Float] = [:]
        for parameter in unit.parameters {
            values[parameter.symbol] = unit.parameterValue(parameter.symbol) ?? parameter.defaultValue
        }
        return values
    }

    mutating func set(node: String, symbol: String, value: Float) {
        byNode[node, default: [:]][symbol] = value
    }
}
