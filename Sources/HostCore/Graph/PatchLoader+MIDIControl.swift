/// The plugin-level checks of `midi-control:` and `scenes:` (the reader has
/// checked the rest): every mapped or scened node is a plugin, every
/// parameter exists, a range stays inside the parameter's, a `log` curve
/// stays above 0, and every scene value is one the parameter takes. A render
/// does not use these sections, but a patch that would fail live fails here.
extension PatchLoader {
    package static func check(_ control: MIDIControl, in graph: AudioGraph) throws(GraphError) {
        for mapping in control.mappings {
            switch mapping.target {
            case .parameter(let node, let symbol, _, _):
                let unit = try pluginUnit(node, in: graph, at: mapping.location, for: "a MIDI mapping")
                guard let parameter = unit.parameters.first(where: { $0.symbol == symbol }) else {
                    throw GraphError("node `\(node)`: `\(unit.displayName)` has no parameter `\(symbol)`", at: mapping.location,
                                     suggestion: Suggestion.didYouMean(symbol, in: unit.parameters.map(\.symbol) + ["bypass"]))
                }
                _ = try mapping.scale(for: parameter)
            case .bypass(let node):
                _ = try pluginUnit(node, in: graph, at: mapping.location, for: "a MIDI bypass switch")
            case .scene, .tempoTap, .morph:
                break
            }
        }
        for scene in control.scenes {
            for setting in scene.nodes {
                let what = "scene `\(scene.name)`"
                let unit = try pluginUnit(setting.node, in: graph, at: setting.location, for: what)
                for parameter in setting.parameters {
                    do {
                        _ = try unit.checkedValue(parameter.symbol, parameter.value)
                    } catch {
                        throw GraphError("\(what), node `\(setting.node)`: \(error.message)",
                                         at: parameter.location ?? setting.location, suggestion: error.suggestion)
                    }
                }
            }
        }
    }

    private static func pluginUnit(_ node: String, in graph: AudioGraph, at location: SourceLocation?,
                                   for what: String) throws(GraphError) -> any ProcessingUnit {
        guard let found = graph.node(named: node) else {
            throw GraphError("unknown node `\(node)` in \(what)", at: location,
                             suggestion: Suggestion.didYouMean(node, in: graph.nodes.map(\.name)))
        }
        guard case .unit(let unit, _) = found.kind else {
            throw GraphError("node `\(node)` in \(what) is not a plugin, so it has no parameters or bypass", at: location)
        }
        return unit
    }
}

extension MIDIMapping {
    /// How this mapping scales a controller onto `parameter`: its range
    /// (the parameter's own when none is given), checked against the
    /// parameter's, and stepped as the parameter is. Throws, at the
    /// mapping's location, a range outside the parameter's or a `log`
    /// curve over a range that reaches 0 or below.
    package func scale(for parameter: ParameterInfo) throws(GraphError) -> MIDIControllerScale {
        guard case .parameter(let node, let symbol, let range, let curve) = target else {
            return MIDIControllerScale(low: 0, high: 1, stepping: .toggle)
        }
        let own = Double(parameter.minimum)...Double(parameter.maximum)
        let bounds = range ?? own
        let shown = "[\(NumberText.format(bounds.lowerBound)), \(NumberText.format(bounds.upperBound))]"
        // A float's rounding of the plugin's bounds must not refuse the bounds themselves.
        let slack = 1e-6 * max(1, abs(own.lowerBound), abs(own.upperBound))
        guard bounds.lowerBound >= own.lowerBound - slack, bounds.upperBound <= own.upperBound + slack else {
            throw GraphError("the range \(shown) of `\(node):\(symbol)` goes beyond the parameter's own, [\(NumberText.format(own.lowerBound)), \(NumberText.format(own.upperBound))]",
                             at: location)
        }
        if curve == .logarithmic, bounds.lowerBound <= 0 {
            throw GraphError("a `log` curve needs a range above 0, but `\(node):\(symbol)` would span \(shown); give a `range` above 0 or use `curve: linear`",
                             at: location)
        }
        let stepping: MIDIControllerScale.Stepping = parameter.isToggle ? .toggle
            : parameter.isInteger || !parameter.enumeration.isEmpty ? .integer : .continuous
        return MIDIControllerScale(low: Float(bounds.lowerBound), high: Float(bounds.upperBound), curve: curve,
                                   stepping: stepping)
    }
}
