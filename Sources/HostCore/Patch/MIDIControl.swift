/// A patch's `midi-control:` and `scenes:` sections: which JACK MIDI ports
/// the controllers are on (and which show the mapped values), what each controller message does, and the named
/// scenes a program change (or the `scene` command) switches to. Plain
/// values; a live session keeps one (learned mappings added) so a save can
/// write it back.
package struct MIDIControl: Sendable, Equatable, Codable {
    /// JACK MIDI output ports (exact names or patterns) to connect to.
    package var inputs: [String]
    /// JACK MIDI input ports (exact names or patterns) the feedback output
    /// (`midi_feedback`) connects to: mapped values are sent back there.
    package var outputs: [String] = []
    package var mappings: [MIDIMapping]
    package var scenes: [SceneDeclaration]
    /// Whether the patch has a `midi-control:` section (so a live session
    /// registers a MIDI input port even when it maps nothing yet).
    package var isDeclared: Bool

    package init(inputs: [String] = [], outputs: [String] = [], mappings: [MIDIMapping] = [],
                 scenes: [SceneDeclaration] = [], isDeclared: Bool = false) {
        self.inputs = inputs
        self.outputs = outputs
        self.mappings = mappings
        self.scenes = scenes
        self.isDeclared = isDeclared
    }

    package func scene(named name: String) -> SceneDeclaration? { scenes.first { $0.name == name } }
}
