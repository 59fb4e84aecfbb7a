import HostCore

/// MIDI controllers and scenes while the session plays. The realtime thread
/// reads the MIDI port and applies the current program's table (see
/// `applyMIDIControl`); here, on the control thread, each program gets its
/// table (`LiveMIDIControl` makes it), `learn`/`unlearn` publish a new one,
/// scenes are sent as one batch, and what the realtime thread applied is
/// drained, recorded (bypass in the graph, values in the parameter record)
/// and handed back to be announced.
extension LiveSession {
    /// The MIDI input port's short name (`fxhost:midi_control`).
    static let midiPortName = "midi_control"
    /// The MIDI feedback output's short name (`fxhost:midi_feedback`).
    static let feedbackPortName = "midi_feedback"
    /// The MIDI clock's input and output short names (`fxhost:clock_in`, `fxhost:clock_out`).
    static let clockInPortName = "clock_in"
    static let clockOutPortName = "clock_out"

    /// The mappings and scenes as they stand (the patch's, learned ones
    /// added, unlearned ones gone): what `save` writes back.
    package var midiControl: MIDIControl { midi.control }

    /// `node:param` a `learn` waits for a controller to map, if any.
    package var midiLearning: String? { midi.learningDestination }

    /// The MIDI input port's full name, when the patch has `midi-control:`.
    package var midiPortFullName: String? { engine.midiPort?.name }

    /// The MIDI feedback output's full name, when the patch has `midi-control: { output: … }`.
    package var feedbackPortFullName: String? { engine.feedbackPort?.name }

    /// Sends every mapped value on the feedback output at the next cycle,
    /// so the controllers show the state (`feedback`).
    package func sendMIDIFeedback() throws(LiveSessionError) {
        guard engine.feedbackPort != nil else { throw .noMIDIFeedback }
        engine.resendMIDIFeedback()
    }

    /// `sendMIDIFeedback` when the patch has a feedback output, else nothing:
    /// once the ports are connected, at start and after a restart.
    package func resendMIDIFeedbackIfAny() { engine.resendMIDIFeedback() }

    /// Replaces the mappings and scenes (a reloaded patch), and has the
    /// realtime thread take them at the next block.
    package func replaceMIDIControl(_ control: MIDIControl) throws(LiveSessionError) {
        let replaced = midi.replace(control)
        do {
            try publishMIDIChange()
        } catch {
            midi.undo(replaced)  // refused: the table playing stays the one remembered
            throw error
        }
        if replaced.wasLearning { engine.setMIDILearning(false) }
    }

    // MARK: Learn

    /// Maps the next controller that moves to `node`'s `parameter` (or its
    /// bypass, for `bypass`). Nothing changes until a controller moves;
    /// `drainMIDI` then makes the mapping and reports it.
    package func learn(node: String, parameter: String) throws(LiveSessionError) {
        guard engine.midiPort != nil else { throw .noMIDIInput }
        _ = try mappable(node: node, parameter: parameter)
        midi.learn(node: node, parameter: parameter)
        engine.setMIDILearning(true)
    }

    /// Removes every mapping to `node`'s `parameter` (and a `learn` waiting
    /// for it); returns the mappings removed. `unlearn tempo tap` removes
    /// the tap tempo footswitch (`to: tempo:tap`: no node of the graph).
    @discardableResult
    package func unlearn(node: String, parameter: String) throws(LiveSessionError) -> [MIDIMapping] {
        if "\(node):\(parameter)" != MIDIMapping.tempoTapDestination { try requireNode(node) }
        let (removed, wasLearning) = try midi.unlearn(node: node, parameter: parameter)
        if wasLearning { engine.setMIDILearning(false) }
        guard !removed.isEmpty else { return [] }
        try publishMIDIChange()
        return removed
    }

    // MARK: Scenes

    /// Switches to scene `name`: every value and bypass it holds reaches the
    /// realtime thread in one batch of commands, applied in one cycle.
    /// With `glide` (seconds, bounded by `SceneGlideTime`), the batch starts
    /// glides instead: continuous values move there over the glide, each on
    /// its scale, and toggles, enumerations and bypasses switch at its end.
    /// Returns the changes to announce (the scene, then each value it goes to).
    package func applyScene(_ name: String, glide: Double? = nil) throws(LiveSessionError) -> [LiveSessionChange] {
        let scene = try midi.scene(named: name)
        guard !serverHasShutDown else { throw .serverGone }
        try requireNoBounce()
        let resolved = try LiveMIDIControl.resolve(scene, strict: true, graph: graph, plan: plan)
        var commands: [LiveCommand]
        let frames = SceneGlideTime.frames(glide ?? 0, sampleRate: format.sampleRate)
        if frames > 0 {
            commands = resolved.parameters.indices.map { index in
                let parameter = resolved.parameters[index]
                let shape = index < resolved.shapes.count ? resolved.shapes[index] : .atEnd
                return .glide(SceneGlideStart(float: parameter.target, flag: nil, goal: parameter.value, shape: shape,
                                              frames: frames))
            }
            commands += resolved.bypasses.map {
                .glide(SceneGlideStart(float: nil, flag: $0.flag, goal: $0.on ? 1 : 0, shape: .atEnd, frames: frames))
            }
        } else {
            commands = resolved.parameters.map { .setFloat($0.target, $0.value) }
            commands += resolved.bypasses.map { .setFlag($0.flag, $0.on ? 1 : 0) }
        }
        do {
            try engine.send(batch: commands)
        } catch {
            throw .engine(error)
        }
        return record(resolved)
    }

    /// Takes `name` for the scene last switched to, without applying it: an
    /// engine restarted from a snapshot (whose values already hold what came
    /// after the scene) keeps the scene its status reported. An unknown name is ignored.
    package func resumeScene(_ name: String) {
        guard (try? midi.scene(named: name)) != nil else { return }
        midi.currentScene = name
    }

    /// Records what a scene set (values, bypass in the graph); returns its changes.
    private func record(_ scene: LiveMIDIControl.ResolvedScene) -> [LiveSessionChange] {
        midi.currentScene = scene.name
        var changes: [LiveSessionChange] = [.sceneApplied(scene.name)]
        for parameter in scene.parameters {
            noteParameterValue(node: parameter.node, symbol: parameter.symbol, value: parameter.value)
            changes.append(.parameter(node: parameter.node, parameter: parameter.symbol, value: parameter.value))
        }
        for bypass in scene.bypasses {
            try? recordBypass(bypass.node, bypass.on)
            changes.append(.bypass(node: bypass.node, on: bypass.on))
        }
        return changes
    }

    // MARK: What the realtime thread did

    /// Takes what the realtime thread applied from MIDI since the last call,
    /// records it (values in the parameter record, bypass in the graph, so
    /// later plans keep it), completes a `learn` whose controller moved, and
    /// returns the changes to announce: the latest value per parameter and
    /// bypass per node in this drain, so a sweep does not flood listeners.
    package func drainMIDI() -> [LiveSessionChange] {
        absorbMIDIActivity()
        return midi.takeUndelivered()
    }

    /// Has the realtime thread report program changes no scene takes (a
    /// setlist run switches patches with them); `takeMIDIPrograms` gives them.
    package func reportMIDIPrograms(_ on: Bool) { engine.setMIDIReportsPrograms(on) }

    /// The program changes no scene took since the last call, in order
    /// (reported only after `reportMIDIPrograms(true)`).
    package func takeMIDIPrograms() -> [Int] {
        absorbMIDIActivity()
        return midi.takePrograms()
    }

    /// Takes and records what the realtime thread applied, keeping the
    /// changes for the next `drainMIDI`. Every graph edit starts with this
    /// (`rewrite`), so the graph it compiles has every bypass a controller set.
    func absorbMIDIActivity() {
        let reports = engine.takeMIDIActivity()
        guard !reports.isEmpty else { return }
        let (changes, learned, taps) = midi.absorb(reports)
        for frameTime in taps {
            // Refused under a JACK timebase master, as `tempo` is: its tempo rules, and the tap changes nothing.
            if case .tempo(let beatsPerMinute)? = try? transport.tap(atFrame: frameTime, sampleRate: format.sampleRate,
                                                                    engine: engine) {
                midi.deliverLater(.tempo(beatsPerMinute))
            }
        }
        if learned != nil {
            engine.setMIDILearning(false)
            // Not published (the server went away): the next program carries it.
            try? publishMIDIChange()
        }
        for change in changes {
            switch change {
            case .parameter(let node, let parameter, let value):
                noteParameterValue(node: node, symbol: parameter, value: value)
            case .bypass(let node, let on):
                try? recordBypass(node, on)
            default:
                break
            }
        }
    }

    // MARK: Tables

    /// Has the realtime thread take the current mappings: the running plan's
    /// program again, with a new table.
    private func publishMIDIChange() throws(LiveSessionError) {
        guard !serverHasShutDown else { throw .serverGone }
        try requireNoBounce()
        var live = makeProgram(for: plan)
        live.continuesPlan = true
        try publishAndWait(live)
    }

    /// Gives `live` (a program for `plan`) its MIDI table, whose memory the
    /// program's owner keeps.
    func attachMIDI(to live: inout LiveProgram, plan: RenderPlan, graph: AudioGraph) {
        guard let owner = live.owner, let storage = midi.makeTable(for: plan, graph: graph) else { return }
        owner.midi = storage
        live.midi = storage.table
    }

    /// The unit of `node` when `parameter` is one of its parameters that can
    /// change while playing (or `bypass`).
    private func mappable(node: String, parameter: String) throws(LiveSessionError) -> any ProcessingUnit {
        let unit = try unit(named: node)
        guard parameter != "bypass" else { return unit }
        guard unit.parameters.contains(where: { $0.symbol == parameter }) else {
            throw .unit(node: node, UnitError("`\(unit.displayName)` has no parameter `\(parameter)`",
                                              suggestion: Suggestion.didYouMean(parameter, in: unit.parameters.map(\.symbol) + ["bypass"])))
        }
        guard unit.controlPointer(symbol: parameter) != nil else {
            throw .unit(node: node, UnitError("`\(unit.displayName)` cannot change `\(parameter)` while it plays"))
        }
        return unit
    }
}
