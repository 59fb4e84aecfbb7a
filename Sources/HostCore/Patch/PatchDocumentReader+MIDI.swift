import Yams

/// MIDI nodes: `midi-input`, `midi-output` (JACK MIDI port names or
/// patterns) and `midi-file` (a Standard MIDI File, optionally with `start`).
extension PatchDocumentReader {
    /// JACK MIDI port names or patterns: one, or a list (`midi-input`,
    /// `midi-output`, and `midi-control`'s `input`).
    func readMIDIPorts(_ node: Node, key: String) throws(GraphError) -> [String] {
        if let single = yaml.text(node), node.sequence == nil {
            guard !single.trimmingSpaces.isEmpty else {
                throw GraphError("`\(key)` must list JACK MIDI port names such as `system:midi_capture_1`, got \(yaml.describe(node))",
                                 at: yaml.location(node))
            }
            return [single]
        }
        guard let sequence = node.sequence else {
            throw GraphError("`\(key)` must be a list of JACK MIDI port names (or patterns), got \(yaml.describe(node))",
                             at: yaml.location(node))
        }
        var ports: [String] = []
        for item in sequence {
            guard let port = yaml.text(item), !port.trimmingSpaces.isEmpty else {
                throw GraphError("`\(key)` ports must be JACK MIDI port names such as `system:midi_capture_1`, got \(yaml.describe(item))",
                                 at: yaml.location(item))
            }
            ports.append(port)
        }
        return ports
    }

    func readMIDIFile(_ entries: [YAMLEntry]) throws(GraphError) -> MIDIFileSpec {
        let file = entries.first { $0.key == "midi-file" }!
        guard let path = yaml.text(file.value), !path.trimmingSpaces.isEmpty else {
            throw GraphError("`midi-file` must be the path of a Standard MIDI File, got \(yaml.describe(file.value))",
                             at: yaml.location(file.value))
        }
        var spec = MIDIFileSpec(path: path, pathLocation: yaml.location(file.value))
        if let start = entries.first(where: { $0.key == "start" }) {
            guard let text = yaml.text(start.value), let seconds = PatchValueSyntax.seconds(text), seconds >= 0 else {
                throw GraphError("`start` must be a time of 0 or more such as `1.5s` or `250ms`, got \(yaml.describe(start.value))",
                                 at: yaml.location(start.value))
            }
            try PatchDocumentReader.requireWithinRange(seconds, key: "start", at: yaml.location(start.value))
            spec.startSeconds = seconds
        }
        return spec
    }
}
