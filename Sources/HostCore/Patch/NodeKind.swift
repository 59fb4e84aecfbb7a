/// What a declared node is: the patch keys `plugin`, `file`, `input`, `output`, `mix` and `gain`.
package enum NodeKind: Sendable, Equatable {
    /// An LV2 plugin (`plugin: URI-or-short-name`).
    case plugin(PluginNodeSpec)
    /// A sound file played from `start` with `gain`.
    case file(FileSourceSpec)
    /// A live input: JACK ports to read (`input: [system:capture_1]`) or just a
    /// channel count (`input: 2`). Offline, `-i FILE` feeds it.
    case input(EndpointPorts)
    /// An output: JACK ports to write, or a channel count. Offline, `-o FILE` takes it.
    case output(EndpointPorts)
    /// A summing bus of a fixed channel count (`mix: 2`).
    case mix(channels: Int)
    /// A gain stage (`gain: -6dB`), as wide as its input.
    case gain(decibels: Double)
    /// A MIDI source: JACK MIDI ports to read (`midi-input: [system:midi_capture_1]`,
    /// names or patterns). Offline, `-i NODE=FILE.mid` feeds it, else it is silent.
    case midiInput(ports: [String])
    /// A Standard MIDI File played on the timeline (`midi-file: notes.mid`, `start`).
    case midiFile(MIDIFileSpec)
    /// A JACK MIDI output (`midi-output: [some:port]`).
    case midiOutput(ports: [String])
}

/// A `midi-file:` node as written.
package struct MIDIFileSpec: Sendable, Equatable {
    /// Relative paths are relative to the patch file's folder.
    package var path: String
    package var pathLocation: SourceLocation?
    package var startSeconds: Double

    package init(path: String, pathLocation: SourceLocation? = nil, startSeconds: Double = 0) {
        self.path = path
        self.pathLocation = pathLocation
        self.startSeconds = startSeconds
    }
}
