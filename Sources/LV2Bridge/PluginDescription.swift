/// What lilv says about one installed plugin, as plain values (for
/// `fxhost plugins --json` and `fxhost info --json`).
package struct PluginDescription: Codable, Sendable, Equatable {
    package var uri: String
    package var name: String
    /// The plugin class label, such as "Distortion" or "Filter".
    package var classLabel: String?
    package var author: String?
    package var project: String?
    package var ports: [PortDescription]
    package var presets: [PresetDescription]
    /// Parameters set by message (`patch:writable`) or reported (`patch:readable`), by URI.
    package var properties: [PropertyDescription]
    package var requiredFeatures: [String]
    package var optionalFeatures: [String]
    package var reportsLatency: Bool

    /// Main audio inputs: audio inputs that are neither optional nor sidechains.
    package var mainAudioInputs: [PortDescription] { ports.filter { $0.isMainAudio && $0.direction == .input } }
    /// Main audio outputs: audio outputs that are neither optional nor sidechains.
    package var mainAudioOutputs: [PortDescription] { ports.filter { $0.isMainAudio && $0.direction == .output } }
    /// Features the plugin requires that this host does not provide.
    package var unsupportedFeatures: [String] { requiredFeatures.filter { !LV2URI.supportedFeatures.contains($0) } }
}

package struct PortDescription: Codable, Sendable, Equatable {
    package enum Kind: String, Codable, Sendable { case audio, control, atom, cv, other }
    package enum Direction: String, Codable, Sendable { case input, output }
    /// lv2:designation values the host drives or reads.
    package enum Designation: String, Codable, Sendable {
        case latency, freeWheeling, enabled
        /// time:beatsPerMinute and time:speed: driven from the host's transport.
        case beatsPerMinute, speed
    }

    package var index: UInt32
    package var symbol: String
    package var name: String
    package var kind: Kind
    package var direction: Direction
    package var minimum: Float?
    package var maximum: Float?
    package var defaultValue: Float?
    package var isToggle: Bool
    package var isInteger: Bool
    /// lv2:enumeration: only the scale points are valid values.
    package var isEnumeration: Bool
    /// pprops:logarithmic: the plugin asks for a logarithmic scale (a frequency, a time).
    package var isLogarithmic: Bool
    package var scalePoints: [ScalePoint]
    /// lv2:connectionOptional.
    package var isOptional: Bool
    /// lv2:isSideChain.
    package var isSideChain: Bool
    package var designation: Designation?
    /// rsz:minimumSize, for atom ports.
    package var minimumSize: Int?
    /// A unit symbol such as "dB", when the plugin names one.
    package var unit: String?
    /// atom:supports, for atom ports: the kinds of event or object the port
    /// takes or gives (`time:Position`, `midi:MidiEvent`, `patch:Message`).
    package var supports: [String] = []

    /// An atom port that takes (input) or gives (output) `midi:MidiEvent`:
    /// a MIDI port of its node in the graph.
    package var supportsMIDI: Bool { kind == .atom && supports.contains(LV2URI.midiEvent) }

    /// An atom input the host sends its `time:Position` to.
    package var takesTimePosition: Bool {
        kind == .atom && direction == .input && supports.contains(LV2URI.timePosition)
    }
    /// A control input the host drives from its transport: not a user parameter.
    package var isDrivenByTransport: Bool {
        kind == .control && direction == .input && (designation == .beatsPerMinute || designation == .speed)
    }

    package var isMainAudio: Bool { kind == .audio && !isOptional && !isSideChain }
}

package struct ScalePoint: Codable, Sendable, Equatable {
    package var label: String
    package var value: Float
}

package struct PresetDescription: Codable, Sendable, Equatable {
    package var label: String
    package var uri: String
}
