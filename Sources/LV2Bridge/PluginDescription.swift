/// What lilv says about one installed plugin, as plain values (for
/// `fxhost plugins --json` and `fxhost info --json`).
public struct PluginDescription: Codable, Sendable, Equatable {
    public var uri: String
    public var name: String
    /// The plugin class label, such as "Distortion" or "Filter".
    public var classLabel: String?
    public var author: String?
    public var project: String?
    public var ports: [PortDescription]
    public var presets: [PresetDescription]
    public var requiredFeatures: [String]
    public var optionalFeatures: [String]
    public var reportsLatency: Bool

    /// Main audio inputs: audio inputs that are neither optional nor sidechains.
    public var mainAudioInputs: [PortDescription] { ports.filter { $0.isMainAudio && $0.direction == .input } }
    /// Main audio outputs: audio outputs that are neither optional nor sidechains.
    public var mainAudioOutputs: [PortDescription] { ports.filter { $0.isMainAudio && $0.direction == .output } }
    /// Features the plugin requires that this host does not provide.
    public var unsupportedFeatures: [String] { requiredFeatures.filter { !LV2URI.supportedFeatures.contains($0) } }
}

public struct PortDescription: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case audio, control, atom, cv, other }
    public enum Direction: String, Codable, Sendable { case input, output }
    /// lv2:designation values the host drives or reads.
    public enum Designation: String, Codable, Sendable { case latency, freeWheeling, enabled }

    public var index: UInt32
    public var symbol: String
    public var name: String
    public var kind: Kind
    public var direction: Direction
    public var minimum: Float?
    public var maximum: Float?
    public var defaultValue: Float?
    public var isToggle: Bool
    public var isInteger: Bool
    /// lv2:enumeration: only the scale points are valid values.
    public var isEnumeration: Bool
    public var scalePoints: [ScalePoint]
    /// lv2:connectionOptional.
    public var isOptional: Bool
    /// lv2:isSideChain.
    public var isSideChain: Bool
    public var designation: Designation?
    /// rsz:minimumSize, for atom ports.
    public var minimumSize: Int?
    /// A unit symbol such as "dB", when the plugin names one.
    public var unit: String?

    public var isMainAudio: Bool { kind == .audio && !isOptional && !isSideChain }
}

public struct ScalePoint: Codable, Sendable, Equatable {
    public var label: String
    public var value: Float
}

public struct PresetDescription: Codable, Sendable, Equatable {
    public var label: String
    public var uri: String
}
