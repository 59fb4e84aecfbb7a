import HostCore

/// MIDI as a signal in a live graph: a JACK MIDI input port per
/// `midi-input` node and a JACK MIDI output port per `midi-output` node
/// (named after the node, made once with the engine), connected to the
/// ports or patterns the patch names; `midi-file` nodes play from the
/// session's start on the live timeline.
extension LiveSession {
    /// The JACK MIDI port names for `plan`'s MIDI inputs and outputs, in
    /// the order of a program's `midiInputs` and `midiOutputs`.
    static func midiPortNames(of plan: RenderPlan) -> (inputs: [String], outputs: [String]) {
        let inputs = plan.midiSources.compactMap { source -> String? in
            if case .input = source.kind { return source.node }
            return nil
        }
        return (inputs, plan.midiOutputs.map(\.node))
    }

    /// `players` (by node) with one for each `midi-file` node of `plan` at
    /// the plan's rate: a node that has none yet starts at the timeline's
    /// start; one at another rate (the server's rate changed) is replaced by
    /// one that plays on from the same time (the program still running keeps
    /// the old one alive).
    static func midiFilePlayers(for plan: RenderPlan, from players: [String: LiveMIDIFilePlayer],
                                resuming resumed: [String: Int] = [:], clockRegion: SharedTapRegion? = nil)
        -> [String: LiveMIDIFilePlayer] {
        var players = players
        let rate = plan.format.sampleRate
        for source in plan.midiSources {
            guard case .file(let file) = source.kind else { continue }
            if let player = players[source.node] {
                guard player.sampleRate != rate else { continue }
                let seconds = Double(player.playback.pointee.position) / player.sampleRate
                players[source.node] = LiveMIDIFilePlayer(node: source.node, source: file, sampleRate: rate,
                                                          fromFrame: Int((seconds * rate).rounded()), clockRegion: clockRegion)
            } else {
                players[source.node] = LiveMIDIFilePlayer(node: source.node, source: file, sampleRate: rate,
                                                          resumingFrom: resumed[source.node], clockRegion: clockRegion)
            }
        }
        return players
    }

    /// Connects each MIDI input to the ports its node names (names or
    /// patterns: every match feeds it) and each MIDI output to its ports.
    func connectMIDIGraphPorts() throws(JackError) {
        let names = Self.midiPortNames(of: plan)
        for (node, port) in zip(names.inputs, engine.midiInputPorts) {
            guard let source = plan.midiSources.first(where: { $0.node == node }),
                  case .input(let specs) = source.kind else { continue }
            for spec in specs { try client.connectMIDI(spec, to: port.name) }
        }
        for (output, port) in zip(plan.midiOutputs, engine.midiOutputPorts) {
            for spec in output.ports { try client.connectMIDI(from: port.name, toMatching: spec) }
        }
    }

    /// The full JACK names of a MIDI node's port (for tests and status).
    package func midiPortName(of node: String) -> String? {
        let names = Self.midiPortNames(of: plan)
        if let index = names.inputs.firstIndex(of: node), index < engine.midiInputPorts.count {
            return engine.midiInputPorts[index].name
        }
        if let index = names.outputs.firstIndex(of: node), index < engine.midiOutputPorts.count {
            return engine.midiOutputPorts[index].name
        }
        return nil
    }
}
