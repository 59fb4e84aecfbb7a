/// The command-line form of a patch: `--chain "mda/Overdrive drive=0.7 ! eg-amp gain=-6"`.
///
/// Plugins are separated by `!`; each is `REFERENCE [symbol=value]... [@option]`
/// (`ChainSyntax`). The result is an input node `in`, the plugins in order,
/// named after their short names (`overdrive`, `overdrive2`, …), and an
/// output node `out`, wired by `ChainChannelRule` (or a stage's `@mix` /
/// `@in=` option) so that every effect fits the stream before it; `out` is as
/// wide as what the last plugin gives unless `outputChannels` says otherwise.
/// Errors point at a column of the chain text, as `--chain:1:COLUMN`.
package enum ChainSpec {
    /// The file name used in error locations.
    package static let sourceName = "--chain"

    /// The plugin references of `text`'s stages, as written; none when its
    /// syntax is wrong (`patch(from:…)` says how).
    package static func pluginReferences(in text: String) -> [String] {
        (try? ChainSyntax.stages(from: text))?.map(\.plugin.plugin) ?? []
    }

    /// The patch `text` describes on a live input `inputChannels` wide.
    /// `units` tells each plugin's audio inputs and outputs, which decide the wiring.
    package static func patch(from text: String, inputChannels: Int = 2, outputChannels: Int? = nil,
                             units: any UnitProvider) throws(GraphError) -> Patch {
        for (count, what) in [(inputChannels, "input"), (outputChannels ?? 1, "output")] where !(1...PatchDocumentReader.channelLimit).contains(count) {
            throw GraphError("the chain's \(what) needs 1 to \(PatchDocumentReader.channelLimit) channels, got \(count)")
        }
        let stages = try ChainSyntax.stages(from: text)
        var nodes = [NodeDeclaration(name: "in", kind: .input(.channels(inputChannels)), location: location(1))]
        var connections: [ConnectionDeclaration] = []
        var used: Set<String> = ["in", "out"]
        var stream = (node: nodes[0], width: inputChannels)
        for stage in stages {
            let name = uniqueName(for: stage.plugin.plugin, used: &used)
            let node = NodeDeclaration(name: name, kind: .plugin(stage.plugin), location: stage.plugin.pluginLocation)
            let unit = try shape(of: stage.plugin, named: name, units: units)
            let wiring = try ChainChannelRule.wiring(for: stage, described: "`\(name)` (\(unit.displayName))",
                                                     inputs: unit.inputPorts.count, outputs: unit.outputPorts.count,
                                                     streamWidth: stream.width)
            connections += self.connections(from: stream.node, to: node, wiring.feed)
            nodes.append(node)
            stream = (node, wiring.outputWidth)
        }
        let out = NodeDeclaration(name: "out", kind: .output(.channels(outputChannels ?? EndpointPorts.asWideAsInput)),
                                  location: location(text.unicodeScalars.count + 1))
        connections += self.connections(from: stream.node, to: out, .whole)
        nodes.append(out)
        return Patch(version: PatchParser.formatVersion, name: nil, nodes: nodes, connections: connections)
    }

    /// A unit for `spec`, asked only for its audio ports; the patch loader makes the one that runs.
    private static func shape(of spec: PluginNodeSpec, named name: String,
                              units: any UnitProvider) throws(GraphError) -> any ProcessingUnit {
        do {
            return try units.makeUnit(spec.plugin)
        } catch {
            // The patch loader's words, so a chain fails the same way a patch file does.
            throw GraphError(node: name, error, at: spec.pluginLocation)
        }
    }

    /// `source -> destination` as a whole, or per input channel with the gain that averages.
    private static func connections(from source: NodeDeclaration, to destination: NodeDeclaration,
                                    _ feed: ChainChannelRule.Wiring.Feed) -> [ConnectionDeclaration] {
        let location = destination.location
        switch feed {
        case .whole:
            return [ConnectionDeclaration(from: PortReference(node: source.name, location: source.location),
                                          to: PortReference(node: destination.name, location: location),
                                          location: location)]
        case .inputs(let channelsByInput):
            var connections: [ConnectionDeclaration] = []
            for (input, channels) in channelsByInput.enumerated() {
                for channel in channels {
                    connections.append(ConnectionDeclaration(
                        from: PortReference(node: source.name, port: .channel(channel + 1), location: source.location),
                        to: PortReference(node: destination.name, port: .channel(input + 1), location: location),
                        gainDecibels: ChainChannelRule.meanGainDecibels(of: channels.count), location: location))
                }
            }
            return connections
        }
    }

    /// The plugin's short name as a node name: last path segment, lowercased,
    /// `#` and other non-name characters made `-`/`_`, unique among `used`.
    static func uniqueName(for reference: String, used: inout Set<String>) -> String {
        let last = reference.split(separator: "/").last.map(String.init) ?? reference
        var base = ""
        for scalar in last.lowercased().unicodeScalars {
            if scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "_" || scalar == "-" {
                base.unicodeScalars.append(scalar)
            } else {
                base += scalar == "#" ? "-" : "_"
            }
        }
        if !PatchValueSyntax.isNodeName(base) { base = "_" + base }
        var name = base
        var counter = 2
        while used.contains(name) {
            name = "\(base)\(counter)"
            counter += 1
        }
        used.insert(name)
        return name
    }

    private static func location(_ column: Int) -> SourceLocation { ChainSyntax.location(column) }
}
