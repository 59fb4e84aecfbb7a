/// A `Patch` as YAML text, section by section: the whole file when there is
/// no earlier text to edit (a `--chain` run saved), or the sections
/// `PatchTextEditor` must write anew because their structure changed.
/// One node or connection per line, in flow style, as the examples in
/// docs/patch-format.md are written; what it writes reads back as the same
/// `Patch` (locations aside).
package enum PatchWriter {
    /// The whole patch; `extraSections` (sections this writer does not know,
    /// such as `midi-control:` and `scenes:`) come last, as given.
    package static func text(of patch: Patch, extraSections: [PatchSection] = []) -> String {
        var lines = ["fxhost: \(patch.version)"]
        if let name = patch.name { lines.append("name: " + YAMLText.string(name)) }
        lines += nodesSection(patch.nodes)
        if !patch.connections.isEmpty { lines += connectSection(patch.connections) }
        if !patch.taps.isEmpty { lines += tapsSection(patch.taps) }
        if !patch.clock.isEmpty { lines.append(clockLine(patch.clock)) }
        for section in extraSections { lines += section.lines }
        return lines.joined(separator: "\n") + "\n"
    }

    static func nodesSection(_ nodes: [NodeDeclaration]) -> [String] {
        ["nodes:"] + nodes.map { "  \($0.name): \(node($0.kind))" }
    }

    static func connectSection(_ connections: [ConnectionDeclaration]) -> [String] {
        ["connect:"] + connections.map { "  - " + connection($0) }
    }

    static func tapsSection(_ taps: [TapDeclaration]) -> [String] {
        ["taps:"] + taps.map { "  - { at: \(YAMLText.string($0.at.description)), file: \(YAMLText.string($0.file)) }" }
    }

    /// `clock: { input: [PORT], output: [PORT] }`, what the patch gave.
    static func clockLine(_ clock: MIDIClockPorts) -> String {
        var entries: [String] = []
        if let inputs = clock.inputs { entries.append("input: " + midiPorts(inputs)) }
        if let outputs = clock.outputs { entries.append("output: " + midiPorts(outputs)) }
        return "clock: { " + entries.joined(separator: ", ") + " }"
    }

    /// A node's mapping on one line: `{ plugin: URI, params: { gain: -6 } }`.
    static func node(_ kind: NodeKind) -> String {
        var entries: [String] = []
        switch kind {
        case .plugin(let spec):
            entries.append("plugin: " + YAMLText.string(spec.plugin))
            if let preset = spec.preset { entries.append("preset: " + YAMLText.string(preset)) }
            if !spec.parameters.isEmpty { entries.append("params: " + parameters(spec.parameters)) }
            if spec.bypass { entries.append("bypass: true") }
        case .file(let spec):
            entries.append("file: " + YAMLText.string(spec.path))
            if spec.startSeconds != 0 { entries.append("start: " + YAMLText.seconds(spec.startSeconds)) }
            if spec.gainDecibels != 0 { entries.append("gain: " + YAMLText.decibels(spec.gainDecibels)) }
            if let pan = spec.pan { entries.append("pan: " + YAMLText.number(pan)) }
        case .input(let ports):
            entries.append("input: " + endpoint(ports))
        case .output(let ports):
            entries.append("output: " + endpoint(ports))
        case .mix(let channels):
            entries.append("mix: \(channels)")
        case .gain(let decibels):
            entries.append("gain: " + YAMLText.decibels(decibels))
        case .midiInput(let ports):
            entries.append("midi-input: " + midiPorts(ports))
        case .midiOutput(let ports):
            entries.append("midi-output: " + midiPorts(ports))
        case .midiFile(let spec):
            entries.append("midi-file: " + YAMLText.string(spec.path))
            if spec.startSeconds != 0 { entries.append("start: " + YAMLText.seconds(spec.startSeconds)) }
        }
        return "{ " + entries.joined(separator: ", ") + " }"
    }

    /// `{ gain: -6, drive: 0.5 }`.
    static func parameters(_ settings: [ParameterSetting]) -> String {
        "{ " + settings.map { "\($0.symbol): " + YAMLText.parameterValue($0.value) }.joined(separator: ", ") + " }"
    }

    static func connection(_ connection: ConnectionDeclaration) -> String {
        let from = YAMLText.string(connection.from.description), to = YAMLText.string(connection.to.description)
        guard connection.gainDecibels != 0 else { return "\(connection.from) -> \(connection.to)" }
        return "{ from: \(from), to: \(to), gain: \(YAMLText.decibels(connection.gainDecibels)) }"
    }

    private static func midiPorts(_ names: [String]) -> String {
        "[" + names.map(YAMLText.string).joined(separator: ", ") + "]"
    }

    private static func endpoint(_ ports: EndpointPorts) -> String {
        switch ports {
        case .channels(let count): return String(count)
        case .ports(let names): return "[" + names.map(YAMLText.string).joined(separator: ", ") + "]"
        }
    }
}
