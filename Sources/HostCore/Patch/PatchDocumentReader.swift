import Yams

/// Reads the top level of a patch document and its `nodes`; the wiring
/// (`chain`, `connect`, `taps`) is in `PatchDocumentReader+Wiring.swift`.
struct PatchDocumentReader {
    let yaml: YAMLReader

    static let topLevelKeys = ["fxhost", "name", "nodes", "chain", "connect", "taps", "midi-control", "scenes", "tempo", "meter", "clock"]
    /// Keys that say what a node is; exactly one per node (`gain` alone is a gain stage).
    static let kindKeys = ["plugin", "file", "input", "output", "mix", "midi-input", "midi-file", "midi-output"]
    static let keysByKind: [String: [String]] = [
        "plugin": ["plugin", "params", "preset", "bypass"],
        "file": ["file", "start", "gain", "pan"],
        "input": ["input"],
        "output": ["output"],
        "mix": ["mix"],
        "gain": ["gain"],
        "midi-input": ["midi-input"],
        "midi-file": ["midi-file", "start"],
        "midi-output": ["midi-output"],
    ]
    static let allNodeKeys = ["plugin", "params", "preset", "bypass", "file", "start", "gain", "pan", "input", "output", "mix",
                              "midi-input", "midi-file", "midi-output"]
    /// More channels than any real rig has: refuse rather than allocate for a typo.
    static let channelLimit = 256

    func read(_ root: Node) throws(GraphError) -> Patch {
        let entries = try yaml.entries(of: root, what: "the patch")
        if let setlist = entries.first(where: { $0.key == "fxhost-setlist" }) {
            throw GraphError("this is a setlist, not a patch; `fxhost run` and `fxhost check` take a setlist, and"
                             + " the other commands one of its patches", at: yaml.location(setlist.keyNode))
        }
        for entry in entries { try yaml.rejectUnknown(entry, allowed: Self.topLevelKeys, in: "the patch") }
        func value(_ key: String) -> YAMLEntry? { entries.first { $0.key == key } }

        guard let version = value("fxhost") else {
            throw GraphError("missing `fxhost: \(PatchParser.formatVersion)` (the patch format version) at the top of the patch",
                             at: yaml.location(root))
        }
        var patch = Patch(version: try readVersion(version.value))
        if let name = value("name") {
            guard let text = yaml.text(name.value) else {
                throw GraphError("`name` must be text, got \(yaml.describe(name.value))", at: yaml.location(name.value))
            }
            patch.name = text
        }
        guard let nodes = value("nodes") else {
            throw GraphError("missing `nodes`; a patch declares its nodes under `nodes:`", at: yaml.location(root))
        }
        patch.nodes = try readNodes(nodes.value)

        let names = DeclaredNodeNames(patch.nodes.map(\.name))
        if let chain = value("chain") { patch.connections += try readChain(chain.value, nodeNames: names) }
        if let connect = value("connect") { patch.connections += try readConnect(connect.value, nodeNames: names) }
        try ConnectionDeclaration.refuseRepeats(patch.connections)
        if let taps = value("taps") { patch.taps = try readTaps(taps.value, nodeNames: names) }
        patch.midiControl = try readMIDIControl(value("midi-control"), scenes: value("scenes"), nodeNames: names)
        patch.tempo = try readTempo(value("tempo"), meter: value("meter"))
        patch.clock = try readClock(value("clock"))
        patch.clockLocation = value("clock").map { yaml.location($0.value) }
        return patch
    }

    private func readVersion(_ node: Node) throws(GraphError) -> Int {
        guard let text = yaml.plainText(node), let version = PatchValueSyntax.integer(text) else {
            throw GraphError("`fxhost` must be the patch format version \(PatchParser.formatVersion), got \(yaml.describe(node))",
                             at: yaml.location(node))
        }
        guard version == PatchParser.formatVersion else {
            throw GraphError("unsupported patch format version \(version); this fxhost reads version \(PatchParser.formatVersion)",
                             at: yaml.location(node))
        }
        return version
    }

    private func readNodes(_ node: Node) throws(GraphError) -> [NodeDeclaration] {
        let entries = try yaml.entries(of: node, what: "`nodes`")
        guard !entries.isEmpty else {
            throw GraphError("`nodes` is empty; a patch needs at least one node", at: yaml.location(node))
        }
        var nodes: [NodeDeclaration] = []
        for entry in entries {
            guard PatchValueSyntax.isNodeName(entry.key) else {
                throw GraphError("invalid node name `\(entry.key)`; \(PatchValueSyntax.nodeNameRule)", at: yaml.location(entry.keyNode))
            }
            let kind = try readNodeKind(name: entry.key, entry.value, nameNode: entry.keyNode)
            nodes.append(NodeDeclaration(name: entry.key, kind: kind, location: yaml.location(entry.keyNode)))
        }
        return nodes
    }

    private func readNodeKind(name: String, _ node: Node, nameNode: Node) throws(GraphError) -> NodeKind {
        let kindList = "`plugin`, `file`, `input`, `output`, `mix`, `gain`, `midi-input`, `midi-file` or `midi-output`"
        if yaml.isNull(node) || node.mapping?.isEmpty == true {
            throw GraphError("node `\(name)` is empty; give it one of \(kindList)", at: yaml.location(nameNode))
        }
        let what = "node `\(name)`"
        let entries = try yaml.entries(of: node, what: what)
        let kindEntries = entries.filter { Self.kindKeys.contains($0.key) }
        if kindEntries.count > 1 {
            throw GraphError("node `\(name)` has two kinds, `\(kindEntries[0].key)` and `\(kindEntries[1].key)`; give it exactly one",
                             at: yaml.location(kindEntries[1].keyNode))
        }
        let kind: String
        if let first = kindEntries.first {
            kind = first.key
        } else if entries.contains(where: { $0.key == "gain" }) {
            kind = "gain"
        } else {
            for entry in entries { try yaml.rejectUnknown(entry, allowed: Self.allNodeKeys, in: what) }
            throw GraphError("node `\(name)` has no kind; give it one of \(kindList)", at: yaml.location(nameNode))
        }
        let allowed = Self.keysByKind[kind]!
        for entry in entries where !allowed.contains(entry.key) {
            if Self.allNodeKeys.contains(entry.key) {
                throw GraphError("`\(entry.key)` does not apply to node `\(name)`, which is a `\(kind)` node",
                                 at: yaml.location(entry.keyNode))
            }
            try yaml.rejectUnknown(entry, allowed: allowed, in: what)
        }
        func value(_ key: String) -> Node? { entries.first { $0.key == key }?.value }

        switch kind {
        case "plugin": return .plugin(try readPlugin(entries, node: name))
        case "file": return .file(try readFile(entries, node: name))
        case "input": return .input(try readEndpoint(value("input")!, key: "input"))
        case "output": return .output(try readEndpoint(value("output")!, key: "output"))
        case "mix": return .mix(channels: try readChannelCount(value("mix")!, key: "mix"))
        case "midi-input": return .midiInput(ports: try readMIDIPorts(value("midi-input")!, key: "midi-input"))
        case "midi-output": return .midiOutput(ports: try readMIDIPorts(value("midi-output")!, key: "midi-output"))
        case "midi-file": return .midiFile(try readMIDIFile(entries))
        default: return .gain(decibels: try readGain(value("gain")!, key: "gain"))
        }
    }

    private func readPlugin(_ entries: [YAMLEntry], node name: String) throws(GraphError) -> PluginNodeSpec {
        let plugin = entries.first { $0.key == "plugin" }!
        guard let reference = yaml.text(plugin.value), !reference.trimmingSpaces.isEmpty else {
            throw GraphError("`plugin` must be a plugin URI or short name such as `mda/Overdrive`, got \(yaml.describe(plugin.value))",
                             at: yaml.location(plugin.value))
        }
        var spec = PluginNodeSpec(plugin: String(reference.trimmingSpaces), pluginLocation: yaml.location(plugin.value))
        for entry in entries {
            switch entry.key {
            case "params":
                spec.parameters = try readParameters(entry.value, node: name)
            case "preset":
                guard let preset = yaml.text(entry.value) else {
                    throw GraphError("`preset` must be a preset label or URI, got \(yaml.describe(entry.value))",
                                     at: yaml.location(entry.value))
                }
                spec.preset = preset
                spec.presetLocation = yaml.location(entry.value)
            case "bypass":
                guard let bypass = yaml.bool(entry.value) else {
                    throw GraphError("`bypass` must be true or false, got \(yaml.describe(entry.value))", at: yaml.location(entry.value))
                }
                spec.bypass = bypass
            default:
                break
            }
        }
        return spec
    }

    /// A parameter's value as a patch writes it: a number (with its unit),
    /// `true`/`false`, or a label; `place` says where, for the error.
    func parameterValue(_ entry: YAMLEntry, where place: String) throws(GraphError) -> ParameterValue {
        if let number = yaml.plainText(entry.value).flatMap({ PatchValueSyntax.number($0) }) { return .number(number) }
        if let toggle = yaml.bool(entry.value) { return .toggle(toggle) }
        if let label = yaml.text(entry.value) { return .label(label) }
        throw GraphError("parameter `\(entry.key)` \(place) must be a number, true/false or a label, got \(yaml.describe(entry.value))",
                         at: yaml.location(entry.value))
    }

    private func readParameters(_ node: Node, node name: String) throws(GraphError) -> [ParameterSetting] {
        var settings: [ParameterSetting] = []
        for entry in try yaml.entries(of: node, what: "`params` of node `\(name)`") {
            guard PatchValueSyntax.isParameterName(entry.key) else {
                throw GraphError("`\(entry.key)` is not a port symbol; symbols contain only letters, digits and `_`",
                                 at: yaml.location(entry.keyNode))
            }
            let value = try parameterValue(entry, where: "of node `\(name)`")
            settings.append(ParameterSetting(symbol: entry.key, value: value, location: yaml.location(entry.keyNode)))
        }
        return settings
    }

    private func readFile(_ entries: [YAMLEntry], node name: String) throws(GraphError) -> FileSourceSpec {
        let file = entries.first { $0.key == "file" }!
        guard let path = yaml.text(file.value), !path.trimmingSpaces.isEmpty else {
            throw GraphError("`file` must be the path of a sound file, got \(yaml.describe(file.value))", at: yaml.location(file.value))
        }
        var spec = FileSourceSpec(path: path, pathLocation: yaml.location(file.value))
        for entry in entries {
            switch entry.key {
            case "start":
                guard let text = yaml.text(entry.value), let seconds = PatchValueSyntax.seconds(text) else {
                    throw GraphError("`start` must be a time such as `1.5s` or `250ms`, got \(yaml.describe(entry.value))",
                                     at: yaml.location(entry.value))
                }
                guard seconds >= 0 else {
                    throw GraphError("`start` must not be negative, got \(yaml.describe(entry.value))", at: yaml.location(entry.value))
                }
                try Self.requireWithinRange(seconds, key: "start", at: yaml.location(entry.value))
                spec.startSeconds = seconds
            case "gain":
                spec.gainDecibels = try readGain(entry.value, key: "gain")
            case "pan":
                guard let text = yaml.plainText(entry.value), let pan = PatchValueSyntax.number(text) else {
                    throw GraphError("`pan` must be a number from -1 (left) to 1 (right), got \(yaml.describe(entry.value))",
                                     at: yaml.location(entry.value))
                }
                guard (-1...1).contains(pan) else {
                    throw GraphError("`pan` must be between -1 (left) and 1 (right), got \(text)", at: yaml.location(entry.value))
                }
                spec.pan = pan
            default:
                break
            }
        }
        return spec
    }

    func readGain(_ node: Node, key: String) throws(GraphError) -> Double {
        guard let text = yaml.text(node), let decibels = PatchValueSyntax.decibels(text) else {
            throw GraphError("`\(key)` must be a gain in dB such as `-3dB`, got \(yaml.describe(node))", at: yaml.location(node))
        }
        if let refusal = InputBounds.gainRefusal(decibels) { throw GraphError(refusal, at: yaml.location(node)) }
        return decibels
    }

    private func readEndpoint(_ node: Node, key: String) throws(GraphError) -> EndpointPorts {
        guard let sequence = node.sequence else {
            guard yaml.plainText(node).flatMap({ PatchValueSyntax.integer($0) }) != nil else {
                throw GraphError("`\(key)` must be a list of JACK port names or a whole number of channels, got \(yaml.describe(node))",
                                 at: yaml.location(node))
            }
            return .channels(try readChannelCount(node, key: key))
        }
        guard !sequence.isEmpty else {
            throw GraphError("`\(key)` lists no ports; give JACK port names or a channel count", at: yaml.location(node))
        }
        guard sequence.count <= Self.channelLimit else {
            throw GraphError("`\(key)` lists \(sequence.count) ports; fxhost handles at most \(Self.channelLimit) channels",
                             at: yaml.location(node))
        }
        var ports: [String] = []
        for item in sequence {
            guard let port = yaml.text(item), !port.trimmingSpaces.isEmpty else {
                throw GraphError("`\(key)` ports must be JACK port names such as `system:playback_1`, got \(yaml.describe(item))",
                                 at: yaml.location(item))
            }
            ports.append(port)
        }
        return .ports(ports)
    }

    private func readChannelCount(_ node: Node, key: String) throws(GraphError) -> Int {
        guard let text = yaml.plainText(node), let channels = PatchValueSyntax.integer(text) else {
            throw GraphError("`\(key)` must be a whole number of channels, got \(yaml.describe(node))", at: yaml.location(node))
        }
        guard channels >= 1 else {
            throw GraphError("`\(key)` must be at least 1 channel, got \(channels)", at: yaml.location(node))
        }
        guard channels <= Self.channelLimit else {
            throw GraphError("`\(key)` of \(channels) channels is more than the \(Self.channelLimit) fxhost handles",
                             at: yaml.location(node))
        }
        return channels
    }
}

extension PatchDocumentReader {
    /// A time the patch gives (`start:`) lies within the longest range a
    /// render takes, checked before anything converts it to frames.
    static func requireWithinRange(_ seconds: Double, key: String, at location: SourceLocation?) throws(GraphError) {
        let longest = RenderOptions.longestRangeSeconds
        guard seconds <= longest else {
            throw GraphError("`\(key)` must be at most \(NumberText.format(longest)) s (24 hours), got "
                             + NumberText.format(seconds) + " s", at: location)
        }
    }
}
