import Yams

/// `clock:` at the top of a patch: `input:` ports whose MIDI clock the
/// transport follows, `output:` ports the transport's clock is sent to.
extension PatchDocumentReader {
    static let clockKeys = ["input", "output"]

    func readClock(_ section: YAMLEntry?) throws(GraphError) -> MIDIClockPorts {
        guard let section else { return MIDIClockPorts() }
        let example = "`clock: { input: [system:midi_capture_1] }` or `clock: { output: [system:midi_playback_1] }`"
        guard section.value.mapping != nil else {
            throw GraphError("`clock` must be a mapping with `input` and/or `output` ports, such as \(example), got \(yaml.describe(section.value))",
                             at: yaml.location(section.value))
        }
        let entries = try yaml.entries(of: section.value, what: "`clock`")
        for entry in entries { try yaml.rejectUnknown(entry, allowed: Self.clockKeys, in: "`clock`") }
        var clock = MIDIClockPorts()
        // `[]`: the port, connected by hand (or by whoever plays into it).
        if let input = entries.first(where: { $0.key == "input" }) { clock.inputs = try readMIDIPorts(input.value, key: "input") }
        if let output = entries.first(where: { $0.key == "output" }) { clock.outputs = try readMIDIPorts(output.value, key: "output") }
        guard !clock.isEmpty else {
            throw GraphError("`clock` needs `input` or `output` ports, such as \(example)", at: yaml.location(section.value))
        }
        return clock
    }
}
