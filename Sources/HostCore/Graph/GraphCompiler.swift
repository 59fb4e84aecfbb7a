import Foundation

/// Turns a resolved `AudioGraph` and its prepared units into a `RenderPlan`:
/// emits ops over virtual buffers node by node, aligns latency, then maps
/// the buffers onto as few real ones as their lifetimes allow. It reads the
/// graph and the prepared units and changes neither: making instances is
/// `PreparedUnits`' job, done before.
///
/// Latency compensation: every node's output latency is the largest latency
/// among everything feeding it plus its own (a plugin's reported latency).
/// Shorter feeds are delayed to match before they are summed, so parallel
/// branches line up to the sample; then every output and tap is delayed to
/// the plan's latency (the largest of them), so a driver that drops that many
/// frames gets all of them aligned with the input.
struct GraphCompiler {
    let resolved: ResolvedGraph
    let units: PreparedUnits
    let format: RenderFormat
    /// The plan this one replaces, whose delay lines carry on (live edits).
    var previous: RenderPlan?

    private var graph: AudioGraph { resolved.graph }

    /// What `AudioGraph.compile` does: resolves the graph, prepares its units
    /// for `format`, then compiles.
    static func compile(_ graph: AudioGraph, format: RenderFormat, previous: RenderPlan?) throws(GraphError) -> RenderPlan {
        guard format.maxBlockFrames > 0 else { throw GraphError("the block size must be at least one frame") }
        let resolved = try ResolvedGraph(graph)
        let units = try PreparedUnits(resolved, format: format)
        return try GraphCompiler(resolved: resolved, units: units, format: format, previous: previous).compile()
    }

    func compile() throws(GraphError) -> RenderPlan {
        var emission = emitNodes()
        let latencyFrames = try alignLatency(&emission)
        return assemblePlan(emission, latencyFrames: latencyFrames)
    }

    /// The program so far, over virtual buffers, and what the plan is assembled from.
    private struct Emission {
        var builder = ProgramBuilder()
        var nodeOutputs: [[VirtualBuffer]]
        /// Frames from the sources to each node's output.
        var nodeLatency: [Int]
        var sources: [(node: String, kind: PlanSource.Kind, buffers: [VirtualBuffer])] = []
        var outputs: [(node: String, ports: [String], buffers: [VirtualBuffer], latency: Int)] = []
        var taps: [(tap: GraphTap, buffers: [VirtualBuffer])] = []
        /// By node index, its MIDI output buffers (MIDI lists).
        var midiOutputs: [[VirtualBuffer]]
        var midiSources: [(node: String, kind: PlanMIDISource.Kind, buffer: VirtualBuffer)] = []
        var midiSinks: [(node: String, ports: [String], buffer: VirtualBuffer)] = []
        var planNodes: [PlanNode] = []
        var units: [any ProcessingUnit] = []
        var kernelOwners: [AnyObject] = []
        var bypassSlots: [String: Int] = [:]

        init(nodeCount: Int) {
            nodeOutputs = [[VirtualBuffer]](repeating: [], count: nodeCount)
            nodeLatency = [Int](repeating: 0, count: nodeCount)
            midiOutputs = [[VirtualBuffer]](repeating: [], count: nodeCount)
        }
    }

    // MARK: Emitting nodes

    private func emitNodes() -> Emission {
        var emission = Emission(nodeCount: graph.nodes.count)
        for nodeIndex in resolved.order { emitNode(nodeIndex, into: &emission) }
        return emission
    }

    private func emitNode(_ nodeIndex: Int, into emission: inout Emission) {
        let node = graph.nodes[nodeIndex], layout = resolved.layouts[nodeIndex]
        emission.builder.beginNode()
        let inputBuffers = emitInputs(of: nodeIndex, into: &emission)
        let midiInputs = resolved.midi.inputs[nodeIndex].map { feeds in
            emission.builder.midiSum(feeds.map { emission.midiOutputs[$0.sourceNode][$0.sourcePort] })
        }
        emission.midiOutputs[nodeIndex] = (0..<resolved.midi.outputCounts[nodeIndex]).map { _ in emission.builder.newMIDIBuffer() }
        let (summary, latency) = emitStage(of: nodeIndex, inputs: inputBuffers, midiInputs: midiInputs, into: &emission)
        emission.nodeLatency[nodeIndex] += latency
        if case .unit(let unit, _) = node.kind, unit.outputIgnoresLatency { emission.nodeLatency[nodeIndex] = 0 }
        emission.planNodes.append(PlanNode(
            name: node.name, summary: summary, inputWidth: layout.inputWidth, outputWidth: layout.outputWidth,
            instances: layout.instances, inputs: inputDescriptions(of: nodeIndex),
            latencyFrames: latency, outputLatencyFrames: emission.nodeLatency[nodeIndex],
            midiInputs: midiInputDescriptions(of: nodeIndex),
            plugin: Self.pluginName(node.kind)))
    }

    /// A unit node's plugin name, for the crash report's names table.
    private static func pluginName(_ kind: GraphNodeKind) -> String? {
        if case .unit(let unit, _) = kind { return unit.displayName }
        return nil
    }

    /// Sums what feeds each input channel, every feed delayed to the latest
    /// one, and starts the node's latency at that feed's.
    private func emitInputs(of nodeIndex: Int, into emission: inout Emission) -> [VirtualBuffer] {
        let contributions = resolved.inputs[nodeIndex]
        let inputLatency = contributions.joined().map { emission.nodeLatency[$0.sourceNode] }.max() ?? 0
        let buffers = (0..<resolved.layouts[nodeIndex].inputWidth).map { channel in
            emission.builder.sum(contributions[channel].map {
                (emission.builder.delayed(emission.nodeOutputs[$0.sourceNode][$0.sourceChannel],
                                          by: inputLatency - emission.nodeLatency[$0.sourceNode],
                                          signal: "\(graph.nodes[$0.sourceNode].name):\($0.sourceChannel + 1)"),
                 $0.gainDecibels)
            })
        }
        emission.nodeLatency[nodeIndex] = inputLatency
        return buffers
    }

    /// The node's own ops; returns its summary for `check` and its own latency.
    private func emitStage(of nodeIndex: Int, inputs: [VirtualBuffer], midiInputs: [VirtualBuffer?],
                           into emission: inout Emission) -> (summary: String, latency: Int) {
        let node = graph.nodes[nodeIndex], layout = resolved.layouts[nodeIndex]
        switch node.kind {
        case .midiInput(let ports):
            emission.midiSources.append((node.name, .input(ports: ports), emission.midiOutputs[nodeIndex][0]))
            return (ports.isEmpty ? "live MIDI input" : "live MIDI input from \(ports.joined(separator: ", "))", 0)
        case .midiFile(let file):
            emission.midiSources.append((node.name, .file(file), emission.midiOutputs[nodeIndex][0]))
            return ("MIDI file \(file.path)", 0)
        case .midiOutput(let ports):
            let buffer = (midiInputs.first ?? nil) ?? emission.builder.emptyMIDIBuffer()
            emission.midiSinks.append((node.name, ports, buffer))
            return (ports.isEmpty ? "MIDI output" : "MIDI output to \(ports.joined(separator: ", "))", 0)
        case .input(let channels, let ports):
            let buffers = (0..<channels).map { _ in emission.builder.newBuffer(pinned: true) }
            emission.sources.append((node.name, .input(ports: ports), buffers))
            emission.nodeOutputs[nodeIndex] = buffers
            return (ports.isEmpty ? "live input, \(Self.channels(channels))" : "live input from \(ports.joined(separator: ", "))", 0)
        case .filePlayer(let file):
            let raw = (0..<file.channels).map { _ in emission.builder.newBuffer(pinned: true) }
            emission.sources.append((node.name, .file(file), raw))
            emission.nodeOutputs[nodeIndex] = emission.builder.filePlayerStage(raw, gainDecibels: file.gainDecibels, pan: file.pan)
            return ("file \(file.path)", 0)
        case .output(_, let ports):
            emission.outputs.append((node.name, ports, inputs, emission.nodeLatency[nodeIndex]))
            emission.nodeOutputs[nodeIndex] = inputs
            return (ports.isEmpty ? "output, \(Self.channels(layout.inputWidth))" : "output to \(ports.joined(separator: ", "))", 0)
        case .mixer(let channels):
            emission.nodeOutputs[nodeIndex] = inputs
            return ("mix bus, \(Self.channels(channels))", 0)
        case .gain(let decibels):
            emission.nodeOutputs[nodeIndex] = inputs.map {
                emission.builder.scaled($0, linearGain: Float(Decibels.toLinear(decibels)))
            }
            return ("gain \(Self.formatDecibels(decibels))", 0)
        case .unit(let unit, let bypass):
            let prepared = units[nodeIndex]
            let slot = emission.builder.newFlag(bypass ? 1 : 0)
            emission.bypassSlots[node.name] = slot
            // The node's index in the plan's nodes, which the driver registers as
            // the culprit cell's names table (this node is appended next).
            emission.nodeOutputs[nodeIndex] = emission.builder.unitStage(
                node: node.name, index: Int32(emission.planNodes.count), kernels: prepared.kernels, inputs: inputs, outputWidth: layout.outputWidth,
                bypassFlag: slot, latencyFrames: prepared.latencyFrames, enabledControl: unit.enabledControl,
                midiInputs: midiInputs, midiOutputs: emission.midiOutputs[nodeIndex])
            emission.units.append(unit)
            emission.kernelOwners += prepared.kernels.compactMap(\.owner)
            let summary = "plugin \(unit.displayName)" + (layout.instances > 1 ? " ×\(layout.instances) (one per channel)" : "")
                + (bypass ? ", bypassed" : "") + (unit.enabledControl != nil ? " (bypass: its own lv2:enabled port, no click)" : "")
            return (summary, prepared.latencyFrames)
        }
    }

    /// Per input channel, what feeds it: "drive:1", "vox:2 (-12.0 dB)".
    private func inputDescriptions(of nodeIndex: Int) -> [[String]] {
        resolved.inputs[nodeIndex].map { channel in
            channel.map { contribution in
                "\(graph.nodes[contribution.sourceNode].name):\(contribution.sourceChannel + 1)"
                    + (contribution.gainDecibels == 0 ? "" : " (\(Self.formatDecibels(contribution.gainDecibels)))")
            }
        }
    }

    /// Per MIDI input port that something feeds, its name and what feeds it: "keys", "filter:midiout".
    private func midiInputDescriptions(of nodeIndex: Int) -> [(port: String, feeds: [String])] {
        let names = MIDIWiring.inputNames(of: graph.nodes[nodeIndex])
        return resolved.midi.inputs[nodeIndex].enumerated().filter { !$0.element.isEmpty }.map { port, feeds in
            (names[port], feeds.map { feed in
                let source = graph.nodes[feed.sourceNode]
                return source.kind.isUnit ? "\(source.name):\(MIDIWiring.outputNames(of: source)[feed.sourcePort])" : source.name
            })
        }
    }

    private static func channels(_ count: Int) -> String { "\(count) channel\(count == 1 ? "" : "s")" }

    // MARK: Aligning latency

    /// Outputs and taps all come out at the plan's latency (the largest of
    /// theirs): each is delayed by what it lacks. Returns that latency.
    private func alignLatency(_ emission: inout Emission) throws(GraphError) -> Int {
        var tapNodes: [(tap: GraphTap, node: Int, channels: [Int])] = []
        for tap in graph.taps {
            let nodeIndex = resolved.resolver.index(of: tap.node)
            switch graph.nodes[nodeIndex].kind {
            case .midiInput, .midiFile, .midiOutput:
                throw GraphError("`\(tap.node)` carries MIDI, and a tap records audio; tap the instrument it plays instead",
                                 at: tap.location)
            default:
                break
            }
            let channels = try resolved.resolver.channels(of: graph.nodes[nodeIndex], tap.port, side: .output,
                                                          layout: resolved.layouts[nodeIndex], at: tap.location)
            try TapFileCheck.requireFormat(tap, channels: channels.count, sampleRate: format.sampleRate)
            tapNodes.append((tap, nodeIndex, channels))
        }
        let planLatency = (emission.outputs.map(\.latency) + tapNodes.map { emission.nodeLatency[$0.node] }).max() ?? 0
        emission.builder.beginNode()  // the alignment delays, after every node
        emission.outputs = emission.outputs.map { output in
            let aligned = output.buffers.enumerated().map {
                emission.builder.delayed($1, by: planLatency - output.latency, signal: "output \(output.node):\($0 + 1)")
            }
            for buffer in aligned { emission.builder.pin(buffer) }
            return (output.node, output.ports, aligned, planLatency)
        }
        for (tap, nodeIndex, channels) in tapNodes {
            let buffers = channels.map {
                emission.builder.delayed(emission.nodeOutputs[nodeIndex][$0], by: planLatency - emission.nodeLatency[nodeIndex],
                                         signal: "\(tap.node):\($0 + 1)")
            }
            for buffer in buffers { emission.builder.pin(buffer) }
            emission.taps.append((tap, buffers))
        }
        return planLatency
    }

    // MARK: Assembling the plan

    /// Real memory for the program, and the plan around it.
    private func assemblePlan(_ emission: Emission, latencyFrames: Int) -> RenderPlan {
        let lowered = emission.builder.lower(frames: format.maxBlockFrames, previous: previous)
        return RenderPlan(
            format: format, memory: lowered.memory,
            sources: emission.sources.map {
                PlanSource(node: $0.node, kind: $0.kind, channels: $0.buffers.map(lowered.pointer))
            },
            outputs: emission.outputs.map {
                PlanOutput(node: $0.node, ports: $0.ports, channels: $0.buffers.map(lowered.pointer), latencyFrames: $0.latency)
            },
            taps: emission.taps.map {
                PlanTap(node: $0.tap.node, file: $0.tap.file, location: $0.tap.location, channels: $0.buffers.map(lowered.pointer))
            },
            nodes: emission.planNodes, latencyFrames: latencyFrames, units: emission.units,
            kernelOwners: emission.kernelOwners,
            bypassFlags: emission.bypassSlots.mapValues { lowered.memory.flags.baseAddress! + $0 },
            midiSources: emission.midiSources.map { PlanMIDISource(node: $0.node, kind: $0.kind, list: lowered.midiPointer($0.buffer)) },
            midiOutputs: emission.midiSinks.map { PlanMIDIOutput(node: $0.node, ports: $0.ports, list: lowered.midiPointer($0.buffer)) })
    }

    static func formatDecibels(_ decibels: Double) -> String {
        String(format: "%+.1f dB", decibels)
    }
}
