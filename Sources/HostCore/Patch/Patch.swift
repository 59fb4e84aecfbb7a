/// The validated model of a patch file: what the user declared, with where
/// each thing was declared so later stages can point at it.
///
/// The parser (`PatchParser`) checks everything that needs no plugin
/// knowledge: syntax, keys, types, units, node references, cycles. The graph
/// builder checks the rest (plugins, port symbols, presets, parameter ranges,
/// channel matching) and reports at the same locations.
public struct Patch: Sendable, Equatable {
    /// Format version (`fxhost: 1`).
    public var version: Int
    public var name: String?
    /// Nodes in declaration order.
    public var nodes: [NodeDeclaration]
    /// `chain` expanded to connections, followed by `connect`, in file order.
    public var connections: [ConnectionDeclaration]
    public var taps: [TapDeclaration]
    /// The file the patch came from (for resolving relative paths), or nil.
    public var sourcePath: String?

    public init(version: Int = 1, name: String? = nil, nodes: [NodeDeclaration] = [],
                connections: [ConnectionDeclaration] = [], taps: [TapDeclaration] = [],
                sourcePath: String? = nil) {
        self.version = version
        self.name = name
        self.nodes = nodes
        self.connections = connections
        self.taps = taps
        self.sourcePath = sourcePath
    }

    public func node(named name: String) -> NodeDeclaration? { nodes.first { $0.name == name } }
}

public struct NodeDeclaration: Sendable, Equatable {
    public var name: String
    public var kind: NodeKind
    /// Where the node's name was written.
    public var location: SourceLocation?

    public init(name: String, kind: NodeKind, location: SourceLocation? = nil) {
        self.name = name
        self.kind = kind
        self.location = location
    }
}

public enum NodeKind: Sendable, Equatable {
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
}

/// Ports of a live input or output, or just how many channels it has.
public enum EndpointPorts: Sendable, Equatable {
    case ports([String])
    /// A channel count; `asWideAsInput` for an output that takes the width of
    /// what feeds it (command-line chains; patch files always give a count).
    case channels(Int)

    public static let asWideAsInput = 0

    public var channelCount: Int {
        switch self {
        case .ports(let ports): return ports.count
        case .channels(let count): return count
        }
    }
}

public struct PluginNodeSpec: Sendable, Equatable {
    /// URI or unique short name (`mda/Overdrive`, `Overdrive`), as written.
    public var plugin: String
    public var pluginLocation: SourceLocation?
    /// Parameter values by port symbol, in file order.
    public var parameters: [ParameterSetting]
    /// LV2 preset label or URI.
    public var preset: String?
    public var presetLocation: SourceLocation?
    public var bypass: Bool

    public init(plugin: String, pluginLocation: SourceLocation? = nil, parameters: [ParameterSetting] = [],
                preset: String? = nil, presetLocation: SourceLocation? = nil, bypass: Bool = false) {
        self.plugin = plugin
        self.pluginLocation = pluginLocation
        self.parameters = parameters
        self.preset = preset
        self.presetLocation = presetLocation
        self.bypass = bypass
    }
}

public struct ParameterSetting: Sendable, Equatable {
    public var symbol: String
    public var value: ParameterValue
    /// Where the parameter's key was written.
    public var location: SourceLocation?

    public init(symbol: String, value: ParameterValue, location: SourceLocation? = nil) {
        self.symbol = symbol
        self.value = value
        self.location = location
    }
}

/// A parameter value as written: a number, a toggle, or an enumeration label.
public enum ParameterValue: Sendable, Equatable, CustomStringConvertible {
    case number(Double)
    case toggle(Bool)
    case label(String)

    public var description: String {
        switch self {
        case .number(let value): return value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
        case .toggle(let value): return value ? "true" : "false"
        case .label(let label): return "\"\(label)\""
        }
    }
}

public struct FileSourceSpec: Sendable, Equatable {
    /// Path as written; relative paths are relative to the patch file's folder.
    public var path: String
    public var pathLocation: SourceLocation?
    /// Where on the timeline the file starts, in seconds (`start: 1.5s`).
    public var startSeconds: Double
    public var gainDecibels: Double
    /// -1 (left) … 0 (centre) … +1 (right); applies to a mono file made stereo
    /// or balances a stereo one. nil: no panning stage.
    public var pan: Double?

    public init(path: String, pathLocation: SourceLocation? = nil, startSeconds: Double = 0,
                gainDecibels: Double = 0, pan: Double? = nil) {
        self.path = path
        self.pathLocation = pathLocation
        self.startSeconds = startSeconds
        self.gainDecibels = gainDecibels
        self.pan = pan
    }
}

/// One end of a connection: `node`, `node:N` (channel, from 1) or `node:symbol`.
public struct PortReference: Sendable, Equatable, CustomStringConvertible {
    public var node: String
    public var port: PortSelector
    public var location: SourceLocation?

    public init(node: String, port: PortSelector = .all, location: SourceLocation? = nil) {
        self.node = node
        self.port = port
        self.location = location
    }

    public var description: String {
        switch port {
        case .all: return node
        case .channel(let channel): return "\(node):\(channel)"
        case .symbol(let symbol): return "\(node):\(symbol)"
        }
    }
}

public enum PortSelector: Sendable, Equatable {
    /// Every channel, matched in order.
    case all
    /// One channel, counted from 1.
    case channel(Int)
    /// An LV2 audio port by symbol.
    case symbol(String)
}

public struct ConnectionDeclaration: Sendable, Equatable {
    public var from: PortReference
    public var to: PortReference
    public var gainDecibels: Double
    public var location: SourceLocation?

    public init(from: PortReference, to: PortReference, gainDecibels: Double = 0, location: SourceLocation? = nil) {
        self.from = from
        self.to = to
        self.gainDecibels = gainDecibels
        self.location = location
    }
}

public struct TapDeclaration: Sendable, Equatable {
    /// The node (or node:N) whose output is recorded.
    public var at: PortReference
    /// Output file; the format follows its extension.
    public var file: String
    public var location: SourceLocation?

    public init(at: PortReference, file: String, location: SourceLocation? = nil) {
        self.at = at
        self.file = file
        self.location = location
    }
}
