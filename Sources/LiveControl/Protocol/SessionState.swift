import HostCore
import JackIO

/// The whole session as any surface draws it from nothing (the `state`
/// query): every node with its kind, plugin, parameters (value, range,
/// default, unit, scale, options), message parameters, bypass and presets;
/// the connections with their gains; the taps with their state; the
/// scenes, MIDI mappings, tempo and transport. Taken on the host's thread;
/// reading it resets nothing (unlike `status`'s peaks).
package struct SessionState: Codable, Sendable {
    package struct Node: Codable, Equatable, Sendable {
        package var name: String
        /// `input`, `output`, `file`, `plugin`, `mix`, `gain`, `midi-input`, `midi-output` or `midi-file`.
        package var kind: String
        /// A plugin's URI and name.
        package var plugin: String?
        package var pluginName: String?
        package var bypassed: Bool?
        /// Audio channels of an input, output or mix node.
        package var channels: Int?
        /// JACK ports an input or output connects to, as the patch names them.
        package var ports: [String]?
        /// A file source's path.
        package var file: String?
        /// A gain node's gain.
        package var gainDB: Double?
        package var parameters: [Parameter]?
        /// Message parameters set so far (a file, a sample), by name.
        package var properties: [String: String]?
        /// Every message parameter the host may set, set or not, in the
        /// plugin's order: what a page draws a file menu or a field from.
        package var messageParameters: [MessageParameter]?
        package var presets: [String]?
    }

    package struct Parameter: Codable, Equatable, Sendable {
        package struct Option: Codable, Equatable, Sendable {
            package var label: String
            package var value: Float
        }

        package var symbol: String
        package var name: String
        package var value: Float
        package var minimum: Float
        package var maximum: Float
        package var defaultValue: Float
        package var unit: String?
        /// `linear`, or `log` where the plugin asks for a logarithmic scale.
        package var scale: String
        package var integer: Bool
        package var toggle: Bool
        /// An enumeration's options (the only values it takes).
        package var options: [Option]?
        /// A port's named values when it is not an enumeration (lv2:scalePoint):
        /// shortcuts beside its slider; any value in the range stays valid.
        package var points: [Option]?
    }

    /// A plugin's writable message parameter: its short name, kind
    /// (`path`, `number`, `text` or `other`) and value as text, null in
    /// JSON until it is set (or the plugin reports it).
    package struct MessageParameter: Codable, Equatable, Sendable {
        package var name: String
        package var kind: String
        package var value: String?

        private enum CodingKeys: String, CodingKey { case name, kind, value }

        package init(name: String, kind: String, value: String?) {
            self.name = name
            self.kind = kind
            self.value = value
        }

        /// `value` written as null when unset (the synthesised form would leave it out).
        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(kind, forKey: .kind)
            try container.encode(value, forKey: .value)
        }
    }

    package struct Connection: Codable, Equatable, Sendable {
        package var from: String
        package var to: String
        package var gainDB: Double
    }

    package struct Tempo: Codable, Equatable, Sendable {
        package var beatsPerMinute: Double
        package var beatsPerBar: Int
        package var beatUnit: Int
        package var rolling: Bool
        /// `fxhost` (its own transport) or `jack` (a timebase master).
        package var source: String
    }

    package struct Scene: Codable, Equatable, Sendable {
        package var name: String
        /// `node:symbol` → value, as the patch gives them.
        package var values: [String: String]
        /// Node → bypassed.
        package var bypass: [String: Bool]
    }

    package var nodes: [Node]
    package var connections: [Connection]
    package var taps: [LiveStatus.Tap]
    package var scenes: [Scene]
    /// Each mapping as the patch writes it (`{ cc: 7, to: amp:gain }`).
    package var mappings: [String]
    /// The parameter a `learn` waits for (`amp:gain`), if any.
    package var learning: String?
    /// The patch sends mapped values back (`midi-control: { output: … }`), so
    /// `feedback` does something. Always set by the host; optional so a state
    /// written before it existed still reads.
    package var feedback: Bool?
    package var tempo: Tempo
    /// Where a setlist run stands (nil: a run of one patch).
    package var setlist: LiveStatus.SetlistPosition?

    /// The session now; with `node`, that node only (and the connections and taps that touch it).
    package init(session: LiveSession, node only: String? = nil) throws(LiveSessionError) {
        if let only { try session.requireNode(only) }
        let graph = session.graph
        let properties = session.messageParameterValues()
        nodes = graph.nodes.filter { only == nil || $0.name == only }.map { node in
            Self.node(node, values: session.parameterValues(node: node.name), properties: properties[node.name])
        }
        connections = graph.connectionDeclarations
            .filter { only == nil || $0.from.node == only || $0.to.node == only }
            .map { Connection(from: $0.from.description, to: $0.to.description, gainDB: $0.gainDecibels) }
        taps = session.taps.filter { only == nil || $0.node == only }
        let control = session.midiControl
        scenes = control.scenes.map { scene in
            var values: [String: String] = [:], bypass: [String: Bool] = [:]
            for setting in scene.nodes {
                for parameter in setting.parameters { values["\(setting.node):\(parameter.symbol)"] = parameter.value.description }
                if let on = setting.bypass { bypass[setting.node] = on }
            }
            return Scene(name: scene.name, values: values, bypass: bypass)
        }
        mappings = control.mappings.map(\.description)
        learning = session.midiLearning
        feedback = session.feedbackPortFullName != nil
        let transport = session.transportStatus
        tempo = Tempo(beatsPerMinute: transport.beatsPerMinute, beatsPerBar: transport.beatsPerBar,
                      beatUnit: transport.beatUnit, rolling: transport.rolling, source: transport.source)
    }

    private static func node(_ node: GraphNode, values: [String: Float], properties: [String: String]?) -> Node {
        var result = Node(name: node.name, kind: "")
        switch node.kind {
        case .input(let channels, let ports):
            result.kind = "input"
            result.channels = channels
            result.ports = ports
        case .output(let channels, let ports):
            result.kind = "output"
            result.channels = channels
            result.ports = ports
        case .filePlayer(let file):
            result.kind = "file"
            result.file = file.path
        case .mixer(let channels):
            result.kind = "mix"
            result.channels = channels
        case .gain(let decibels):
            result.kind = "gain"
            result.gainDB = decibels
        case .unit(let unit, let bypass):
            result.kind = "plugin"
            result.plugin = unit.identifier
            result.pluginName = unit.displayName
            result.bypassed = bypass
            result.parameters = unit.parameters.map { info in
                Parameter(symbol: info.symbol, name: info.name, value: values[info.symbol] ?? info.defaultValue,
                          minimum: info.minimum, maximum: info.maximum, defaultValue: info.defaultValue, unit: info.unit,
                          scale: info.isLogarithmic ? "log" : "linear", integer: info.isInteger, toggle: info.isToggle,
                          options: info.enumeration.isEmpty ? nil : info.enumeration.map { Parameter.Option(label: $0.label, value: $0.value) },
                          points: info.scalePoints.isEmpty ? nil : info.scalePoints.map { Parameter.Option(label: $0.label, value: $0.value) })
            }
            result.properties = properties ?? [:]
            result.messageParameters = unit.writableMessageParameters.map {
                MessageParameter(name: $0.name, kind: $0.kind.rawValue, value: properties?[$0.name])
            }
            result.presets = unit.presetLabels
        case .midiInput(let ports):
            result.kind = "midi-input"
            result.ports = ports
        case .midiOutput(let ports):
            result.kind = "midi-output"
            result.ports = ports
        case .midiFile(let file):
            result.kind = "midi-file"
            result.file = file.path
        }
        return result
    }
}
