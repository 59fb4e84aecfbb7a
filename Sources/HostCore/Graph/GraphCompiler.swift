import Foundation

/// Turns an `AudioGraph` into a `RenderPlan`: schedules nodes, resolves
/// channel widths, emits ops over virtual buffers, then maps those onto as few
/// real buffers as their lifetimes allow.
///
/// Latency compensation: every node's output latency is the largest latency
/// among everything feeding it plus its own (a plugin's reported latency).
/// Shorter feeds are delayed to match before they are summed, so parallel
/// branches line up to the sample; then every output and tap is delayed to
/// the plan's latency (the largest of them), so a driver that drops that many
/// frames gets all of them aligned with the input.
struct GraphCompiler {
    let graph: AudioGraph
    let format: RenderFormat
    /// The plan this one replaces, whose delay lines carry on (live edits).
    var previous: RenderPlan?

    func compile() throws(PatchError) -> RenderPlan {
        guard format.maxBlockFrames > 0 else { throw PatchError("the block size must be at least one frame") }
        try requireDistinctFiles()
        let order = try Schedule.order(of: graph)
        let resolver = ChannelResolver(graph: graph, order: order)
        let (layouts, inputs) = try resolver.resolve()
        var builder = ProgramBuilder()
        var nodeOutputs = [[VirtualBuffer]](repeating: [], count: graph.nodes.count)
        var nodeInputs = [[VirtualBuffer]](repeating: [], count: graph.nodes.count)
        /// Frames from the sources to each node's output.
        var nodeLatency = [Int](repeating: 0, count: graph.nodes.count)
        var sources: [(node: String, kind: PlanSource.Kind, buffers: [VirtualBuffer])] = []
        var outputs: [(node: String, ports: [String], buffers: [VirtualBuffer], latency: Int)] = []
        var planNodes: [PlanNode] = []
        var units: [any ProcessingUnit] = []
        var kernelOwners: [AnyObject] = []
        var bypassSlots: [String: Int] = [:]

        for nodeIndex in order {
            let node = graph.nodes[nodeIndex]
            let layout = layouts[nodeIndex]
            // Every channel of every input waits for the latest feed.
            let inputLatency = inputs[nodeIndex].joined().map { nodeLatency[$0.sourceNode] }.max() ?? 0
            let inputBuffers = (0..<layout.inputWidth).map { channel in
                builder.sum(inputs[nodeIndex][channel].map {
                    (builder.delayed(nodeOutputs[$0.sourceNode][$0.sourceChannel],
                                     by: inputLatency - nodeLatency[$0.sourceNode],
                                     signal: "\(graph.nodes[$0.sourceNode].name):\($0.sourceChannel + 1)"), $0.gainDecibels)
                })
            }
            nodeLatency[nodeIndex] = inputLatency
            nodeInputs[nodeIndex] = inputBuffers
            var summary: String
            var latency = 0
            switch node.kind {
            case .input(let channels, let ports):
                summary = ports.isEmpty ? "live input, \(channels) channel\(channels == 1 ? "" : "s")"
                    : "live input from \(ports.joined(separator: ", "))"
                let buffers = (0..<channels).map { _ in builder.newBuffer(pinned: true) }
                sources.append((node.name, .input(ports: ports), buffers))
                nodeOutputs[nodeIndex] = buffers
            case .filePlayer(let file):
                summary = "file \(file.path)"
                let raw = (0..<file.channels).map { _ in builder.newBuffer(pinned: true) }
                sources.append((node.name, .file(file), raw))
                nodeOutputs[nodeIndex] = builder.filePlayerStage(raw, gainDecibels: file.gainDecibels, pan: file.pan)
            case .output(_, let ports):
                let channels = layout.inputWidth
                summary = ports.isEmpty ? "output, \(channels) channel\(channels == 1 ? "" : "s")"
                    : "output to \(ports.joined(separator: ", "))"
                outputs.append((node.name, ports, inputBuffers, inputLatency))
                nodeOutputs[nodeIndex] = inputBuffers
            case .mixer(let channels):
                summary = "mix bus, \(channels) channel\(channels == 1 ? "" : "s")"
                nodeOutputs[nodeIndex] = inputBuffers
            case .gain(let decibels):
                summary = "gain \(Self.formatDecibels(decibels))"
                nodeOutputs[nodeIndex] = inputBuffers.map { builder.scaled($0, linearGain: Float(Decibels.toLinear(decibels))) }
            case .unit(let unit, let bypass):
                let kernels: [ProcessorKernel]
                do {
                    kernels = try unit.prepareInstances(count: layout.instances, format: format)
                } catch {
                    throw PatchError("`\(node.name)` (\(unit.displayName)) could not be started: \(error.message)",
                                     at: node.location, suggestion: error.suggestion)
                }
                let slot = builder.newFlag(bypass ? 1 : 0)
                bypassSlots[node.name] = slot
                nodeOutputs[nodeIndex] = builder.unitStage(node: node.name, kernels: Array(kernels.prefix(layout.instances)),
                                                           inputs: inputBuffers, outputWidth: layout.outputWidth,
                                                           bypassFlag: slot, latencyFrames: unit.latencyFrames)
                units.append(unit)
                kernelOwners += kernels.prefix(layout.instances).compactMap(\.owner)
                latency = unit.latencyFrames
                nodeLatency[nodeIndex] += latency
                summary = "plugin \(unit.displayName)" + (layout.instances > 1 ? " ×\(layout.instances) (one per channel)" : "")
                    + (bypass ? ", bypassed" : "")
            }
            planNodes.append(PlanNode(
                name: node.name, summary: summary, inputWidth: layout.inputWidth, outputWidth: layout.outputWidth,
                instances: layout.instances,
                inputs: inputs[nodeIndex].map { channel in
                    channel.map { contribution in
                        "\(graph.nodes[contribution.sourceNode].name):\(contribution.sourceChannel + 1)"
                            + (contribution.gainDecibels == 0 ? "" : " (\(Self.formatDecibels(contribution.gainDecibels)))")
                    }
                },
                latencyFrames: latency, outputLatencyFrames: nodeLatency[nodeIndex]))
        }

        // Outputs and taps all come out at the plan's latency.
        var tapNodes: [(tap: GraphTap, node: Int, channels: [Int])] = []
        for tap in graph.taps {
            let nodeIndex = resolver.index(of: tap.node)
            let channels = try resolver.channels(of: graph.nodes[nodeIndex], tap.port, side: .output,
                                                 layout: layouts[nodeIndex], at: tap.location)
            try TapFileCheck.requireFormat(tap, channels: channels.count, sampleRate: format.sampleRate)
            tapNodes.append((tap, nodeIndex, channels))
        }
        let planLatency = (outputs.map(\.latency) + tapNodes.map { nodeLatency[$0.node] }).max() ?? 0
        outputs = outputs.map { output in
            let aligned = output.buffers.enumerated().map {
                builder.delayed($1, by: planLatency - output.latency, signal: "output \(output.node):\($0 + 1)")
            }
            for buffer in aligned { builder.pin(buffer) }
            return (output.node, output.ports, aligned, planLatency)
        }

        var taps: [(tap: GraphTap, buffers: [VirtualBuffer])] = []
        for (tap, nodeIndex, channels) in tapNodes {
            let buffers = channels.map {
                builder.delayed(nodeOutputs[nodeIndex][$0], by: planLatency - nodeLatency[nodeIndex],
                                signal: "\(tap.node):\($0 + 1)")
            }
            for buffer in buffers { builder.pin(buffer) }
            taps.append((tap, buffers))
        }

        let lowered = builder.lower(frames: format.maxBlockFrames, previous: previous)
        return RenderPlan(
            format: format, memory: lowered.memory,
            sources: sources.map { PlanSource(node: $0.node, kind: $0.kind, channels: $0.buffers.map(lowered.pointer)) },
            outputs: outputs.map { PlanOutput(node: $0.node, ports: $0.ports, channels: $0.buffers.map(lowered.pointer),
                                              latencyFrames: $0.latency) },
            taps: taps.map { PlanTap(node: $0.tap.node, file: $0.tap.file, location: $0.tap.location,
                                     channels: $0.buffers.map(lowered.pointer)) },
            nodes: planNodes, latencyFrames: planLatency, units: units, kernelOwners: kernelOwners,
            bypassFlags: bypassSlots.mapValues { lowered.memory.flags.baseAddress! + $0 })
    }

    /// No two taps on one file, and no tap over a file a source plays.
    private func requireDistinctFiles() throws(PatchError) {
        var uses = graph.taps.map {
            FileConflicts.Use(owner: "the tap on `\($0.node)`", path: $0.file, writes: true, location: $0.location)
        }
        for node in graph.nodes {
            if case .filePlayer(let file) = node.kind {
                uses.append(FileConflicts.Use(owner: "file source `\(node.name)`", path: file.path, writes: false,
                                              location: node.location))
            }
        }
        if let conflict = FileConflicts.first(in: uses) { throw PatchError(conflict.message, at: conflict.location) }
    }

    static func formatDecibels(_ decibels: Double) -> String {
        String(format: "%+.1f dB", decibels)
    }
}
