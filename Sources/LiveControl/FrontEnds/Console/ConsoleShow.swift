import HostCore
import JackIO

/// `show` and `show NODE` as the console prints them: the graph as text,
/// or one node's parameters with their values, ranges and units, as lines
/// (`Terminal.output(lines:)` escapes what came from outside in each).
enum ConsoleShow {
    /// `oneNode`: the state of the node `show NODE` named.
    static func lines(_ state: SessionState, oneNode: Bool) -> [String] {
        if oneNode, let only = state.nodes.first { return node(only) }
        var lines = ["nodes:"]
        let width = state.nodes.map(\.name.count).max() ?? 0
        for node in state.nodes {
            lines.append("  " + node.name.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + summary(node))
        }
        if !state.connections.isEmpty {
            lines.append("connections:")
            for connection in state.connections {
                lines.append("  \(connection.from) → \(connection.to)"
                             + (connection.gainDB == 0 ? "" : " (\(NumberText.format(connection.gainDB)) dB)"))
            }
        }
        if !state.taps.isEmpty {
            lines.append("taps:")
            for tap in state.taps {
                lines.append("  \(tap.node) → \(tap.file): \(tap.state.rawValue) \(NumberText.clock(tap.seconds))")
            }
        }
        if !state.scenes.isEmpty { lines.append("scenes: " + state.scenes.map(\.name).joined(separator: ", ")) }
        if !state.mappings.isEmpty { lines.append("MIDI: " + state.mappings.joined(separator: ", ")) }
        let tempo = state.tempo
        lines.append("tempo \(NumberText.format(tempo.beatsPerMinute)) bpm, \(tempo.beatsPerBar)/\(tempo.beatUnit), "
                     + (tempo.rolling ? "rolling" : "stopped") + " (\(tempo.source))")
        return lines
    }

    /// One line for a node in the graph.
    private static func summary(_ node: SessionState.Node) -> String {
        switch node.kind {
        case "plugin":
            return "\(node.pluginName ?? "plugin")" + (node.bypassed == true ? ", bypassed" : "")
        case "input", "output":
            let arrow = node.kind == "input" ? "←" : "→"
            let ports = node.ports ?? []
            return "\(node.kind), \(node.channels ?? 0) channel\(node.channels == 1 ? "" : "s")"
                + (ports.isEmpty ? "" : " \(arrow) " + ports.joined(separator: ", "))
        case "mix":
            return "mix, \(node.channels ?? 0) channels"
        case "gain":
            return "gain \(NumberText.format(node.gainDB ?? 0)) dB"
        case "file", "midi-file":
            return "\(node.kind) \(node.file ?? "")"
        default:
            return node.kind + ((node.ports ?? []).isEmpty ? "" : " " + (node.ports ?? []).joined(separator: ", "))
        }
    }

    /// A node's parameters: value, range, default and unit, one a line.
    private static func node(_ node: SessionState.Node) -> [String] {
        var lines = ["\(node.name): " + summary(node) + (node.plugin.map { " <\($0)>" } ?? "")]
        let parameters = node.parameters ?? []
        let width = parameters.map(\.symbol.count).max() ?? 0
        for parameter in parameters {
            let unit = parameter.unit.map { " \($0)" } ?? ""
            var text = "  " + parameter.symbol.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
            if parameter.toggle {
                text += parameter.value != 0 ? "on" : "off"
            } else if let options = parameter.options {
                let current = options.first { $0.value == parameter.value }?.label ?? NumberText.format(parameter.value)
                text += "\(current) (\(options.map(\.label).joined(separator: " | ")))"
            } else {
                text += "\(NumberText.format(parameter.value))\(unit)  [\(NumberText.format(parameter.minimum)) … "
                    + "\(NumberText.format(parameter.maximum))\(unit)\(parameter.scale == "log" ? ", log" : "")]"
                    + ", default \(NumberText.format(parameter.defaultValue))"
            }
            lines.append(text + "  " + parameter.name)
        }
        // Every message parameter the host may set, set or not (as the web
        // page shows them), then any other the plugin reported.
        let messages = node.messageParameters ?? []
        for message in messages {
            lines.append("  \(message.name) = " + (message.value ?? "(not set; a \(message.kind))"))
        }
        for (name, value) in (node.properties ?? [:]).sorted(by: { $0.key < $1.key })
        where !messages.contains(where: { $0.name == name }) {
            lines.append("  \(name) = \(value)")
        }
        if let presets = node.presets, !presets.isEmpty { lines.append("  presets: " + presets.joined(separator: ", ")) }
        return lines
    }
}
