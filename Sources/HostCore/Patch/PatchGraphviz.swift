/// Graphviz DOT for a patch as declared (`fxhost graph PATCH | dot -Tsvg`).
///
/// Nodes are boxes labelled with their name and kind (plugin reference,
/// file, ports or channel count); connections are edges labelled with port
/// selectors and non-zero gains; each tap is a dashed edge to a note-shaped
/// node for its file. Edges out of MIDI sources and into MIDI outputs are
/// bold and labelled `MIDI` (which plugin-to-plugin edges carry MIDI is
/// known only once the plugins are loaded: `fxhost check` says).
package enum PatchGraphviz {
    package static func dot(_ patch: Patch) -> String {
        var lines = ["digraph \(quoted(patch.name ?? "patch")) {",
                     "  rankdir=LR;",
                     "  node [shape=box, style=rounded, fontname=\"Helvetica\"];",
                     "  edge [fontname=\"Helvetica\", fontsize=10];"]
        for node in patch.nodes {
            lines.append("  \(quoted(node.name)) [label=\(quoted(node.name + "\n" + kindLabel(node.kind))), shape=\(shape(node.kind))];")
        }
        for connection in patch.connections {
            var label: [String] = []
            if let selector = selectorLabel(connection.from.port) { label.append("from \(selector)") }
            if let selector = selectorLabel(connection.to.port) { label.append("to \(selector)") }
            if connection.gainDecibels != 0 { label.append(decibels(connection.gainDecibels)) }
            let isMIDI = patch.nodes.contains { node in
                (node.name == connection.from.node && node.kind.isMIDISource)
                    || (node.name == connection.to.node && node.kind.isMIDIOutput)
            }
            if isMIDI { label.insert("MIDI", at: 0) }
            let style = isMIDI ? "style=bold, " : ""
            let attributes = label.isEmpty ? "" : " [\(style)label=\(quoted(label.joined(separator: "\n")))]"
            lines.append("  \(quoted(connection.from.node)) -> \(quoted(connection.to.node))\(attributes);")
        }
        for (index, tap) in patch.taps.enumerated() {
            let fileNode = "tap \(index + 1)"
            lines.append("  \(quoted(fileNode)) [label=\(quoted(tap.file)), shape=note];")
            let label = selectorLabel(tap.at.port).map { "label=\(quoted("from " + $0)), " } ?? ""
            lines.append("  \(quoted(tap.at.node)) -> \(quoted(fileNode)) [\(label)style=dashed];")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    static func kindLabel(_ kind: NodeKind) -> String {
        switch kind {
        case .plugin(let spec):
            var label = spec.plugin
            if let preset = spec.preset { label += "\npreset: \(preset)" }
            if spec.bypass { label += "\n(bypassed)" }
            return label
        case .file(let spec):
            var label = "file: \(spec.path)"
            if spec.startSeconds != 0 { label += "\nstart \(NumberText.format(spec.startSeconds))s" }
            if spec.gainDecibels != 0 { label += "\n\(decibels(spec.gainDecibels))" }
            if let pan = spec.pan { label += "\npan \(NumberText.format(pan))" }
            return label
        case .input(let ports): return "input: " + endpointLabel(ports)
        case .output(let ports): return "output: " + endpointLabel(ports)
        case .mix(let channels): return "mix: \(channels) ch"
        case .gain(let gain): return "gain: \(decibels(gain))"
        case .midiInput(let ports): return "MIDI input" + (ports.isEmpty ? "" : ": " + ports.joined(separator: ", "))
        case .midiOutput(let ports): return "MIDI output" + (ports.isEmpty ? "" : ": " + ports.joined(separator: ", "))
        case .midiFile(let spec):
            return "MIDI file: \(spec.path)" + (spec.startSeconds != 0 ? "\nstart \(NumberText.format(spec.startSeconds))s" : "")
        }
    }

    private static func shape(_ kind: NodeKind) -> String {
        switch kind {
        case .input, .file, .midiInput, .midiFile: return "invhouse"
        case .output, .midiOutput: return "house"
        case .mix: return "invtrapezium"
        case .plugin, .gain: return "box"
        }
    }

    private static func endpointLabel(_ ports: EndpointPorts) -> String {
        switch ports {
        case .ports(let names): return names.joined(separator: ", ")
        case .channels(EndpointPorts.asWideAsInput): return "as wide as its input"
        case .channels(let count): return "\(count) ch"
        }
    }

    private static func selectorLabel(_ selector: PortSelector) -> String? {
        switch selector {
        case .all: return nil
        case .channel(let channel): return "ch \(channel)"
        case .symbol(let symbol): return symbol
        }
    }

    private static func decibels(_ value: Double) -> String {
        (value > 0 ? "+" : "") + NumberText.format(value) + " dB"
    }

    /// A DOT double-quoted ID: backslashes and quotes escaped, newlines as `\n` line breaks.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for character in text {
            switch character {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result + "\""
    }
}

extension NodeKind {
    var isMIDISource: Bool {
        switch self {
        case .midiInput, .midiFile: return true
        default: return false
        }
    }

    var isMIDIOutput: Bool {
        if case .midiOutput = self { return true }
        return false
    }
}
