import Foundation

/// Turns an `AudioGraph` into a `RenderPlan`: schedules nodes, resolves
/// channel widths, emits ops over virtual buffers, then maps those onto as few
/// real buffers as their lifetimes allow.
struct GraphCompiler {
    let graph: AudioGraph
    let format: RenderFormat

    func compile() throws(PatchError) -> RenderPlan {
        guard format.maxBlockFrames > 0 else { throw PatchError("the block size must be at least one frame") }
        let order = try Schedule.order(of: graph)
        let resolver = ChannelResolver(graph: graph, order: order)
        let (layouts, inputs) = try resolver.resolve()
        var builder = ProgramBuilder()
        var nodeOutputs = [[VirtualBuffer]](repeating: [], count: graph.nodes.count)
        var nodeInputs = [[VirtualBuffer]](repeating: [], count: graph.nodes.count)
        var sources: [(node: String, kind: PlanSource.Kind, buffers: [VirtualBuffer])] = []
        var outputs: [(node: String, ports: [String], buffers: [VirtualBuffer])] = []
        var planNodes: [PlanNode] = []
        var units: [any ProcessingUnit] = []
        var bypassSlots: [String: Int] = [:]

        for nodeIndex in order {
            let node = graph.nodes[nodeIndex]
            let layout = layouts[nodeIndex]
            let inputBuffers = (0..<layout.inputWidth).map { channel in
                builder.sum(inputs[nodeIndex][channel].map {
                    (nodeOutputs[$0.sourceNode][$0.sourceChannel], $0.gainDecibels)
                })
            }
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
                for buffer in inputBuffers { builder.pin(buffer) }
                outputs.append((node.name, ports, inputBuffers))
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
                nodeOutputs[nodeIndex] = builder.unitStage(kernels: Array(kernels.prefix(layout.instances)),
                                                           inputs: inputBuffers, outputWidth: layout.outputWidth,
                                                           bypassFlag: slot)
                units.append(unit)
                latency = unit.latencyFrames
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
                latencyFrames: latency))
        }

        var taps: [(tap: GraphTap, buffers: [VirtualBuffer])] = []
        for tap in graph.taps {
            let nodeIndex = resolver.index(of: tap.node)
            let node = graph.nodes[nodeIndex]
            let channels = try resolver.channels(of: node, tap.port, side: .output, layout: layouts[nodeIndex],
                                                 at: tap.location)
            let buffers = channels.map { nodeOutputs[nodeIndex][$0] }
            for buffer in buffers { builder.pin(buffer) }
            taps.append((tap, buffers))
        }

        let lowered = builder.lower(frames: format.maxBlockFrames)
        return RenderPlan(
            format: format, memory: lowered.memory,
            sources: sources.map { PlanSource(node: $0.node, kind: $0.kind, channels: $0.buffers.map(lowered.pointer)) },
            outputs: outputs.map { PlanOutput(node: $0.node, ports: $0.ports, channels: $0.buffers.map(lowered.pointer)) },
            taps: taps.map { PlanTap(node: $0.tap.node, file: $0.tap.file, location: $0.tap.location,
                                     channels: $0.buffers.map(lowered.pointer)) },
            nodes: planNodes, units: units,
            bypassFlags: bypassSlots.mapValues { lowered.memory.flags.baseAddress! + $0 })
    }

    static func formatDecibels(_ decibels: Double) -> String {
        String(format: "%+.1f dB", decibels)
    }
}
