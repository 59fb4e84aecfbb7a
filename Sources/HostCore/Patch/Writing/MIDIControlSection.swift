/// `midi-control:` written from a live session's mappings (`learn` and
/// `unlearn` change them), for `save`: each `map:` entry as the patch
/// writes it (`{ cc: 7, to: amp:gain, range: [-30, 0] }`).
package enum MIDIControlSection {
    /// The section for `control`, or nil when its inputs and mappings are
    /// what `loaded` (the patch as read) says: then the file's own text,
    /// comments and all, stays as it is.
    package static func section(_ control: MIDIControl, unlessSameAs loaded: MIDIControl) -> PatchSection? {
        guard control.isDeclared || !control.mappings.isEmpty else { return nil }
        if control.inputs == loaded.inputs && control.outputs == loaded.outputs && control.mappings.map(\.description) == loaded.mappings.map(\.description) {
            return nil
        }
        var lines = ["midi-control:"]
        if !control.inputs.isEmpty {
            lines.append("  input: [" + control.inputs.map(YAMLText.quoted).joined(separator: ", ") + "]")
        }
        if !control.outputs.isEmpty {
            lines.append("  output: [" + control.outputs.map(YAMLText.quoted).joined(separator: ", ") + "]")
        }
        if !control.mappings.isEmpty {
            lines.append("  map:")
            lines += control.mappings.map { "    - \($0.description)" }
        }
        return PatchSection(key: "midi-control", lines: lines)
    }
}
