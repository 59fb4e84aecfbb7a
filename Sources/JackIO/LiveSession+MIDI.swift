import HostCore

/// MIDI controllers and scenes while the session plays. The realtime thread
/// reads the MIDI port and applies the current program's table (see
/// `applyMIDIControl`); here, on the control thread, the table is built for
/// each program, `learn`/`unlearn` publish a new one, scenes are sent as one
/// batch, and what the realtime thread applied is drained, recorded (bypass
/// in the graph, values in the parameter record) and handed back to be
/// announced.
extension LiveSession {
    /// The MIDI input port's short name (`fxhost:midi_control`).
    static let midiPortName = "midi_control"

    /// The mappings and scenes as they stand (the patch's, learned ones
    /// added, unlearned ones gone): what `save` writes back.
    package var midiControl: MIDIControl { midi.control }

    /// `node:param` a `learn` waits for a controller to map, if any.
    package var midiLearning: String? { midi.learning.map { "\($0.node):\($0.target)" } }

    /// The MIDI input port's full name, when the patch has `midi-control:`.
    package var midiPortFullName: String? { engine.midiPort?.name }

    /// Replaces the mappings and scenes (a reloaded patch), and has the
    /// realtime thread take them at the next block.
    package func replaceMIDIControl(_ control: MIDIControl) throws(LiveSessionError) {
        midi.control = control
        try publishMIDIChange()
    }

    // MARK: Learn

    /// Maps the next controller that moves to `node`'s `parameter` (or its
    /// bypass, for `bypass`). Nothing changes until a controller moves;
    /// `drainMIDI` then makes the mapping and reports it.
    package func learn(node: String, parameter: String) throws(LiveSessionError) {
        guard engine.midiPort != nil else { throw .noMIDIInput }
        _ = try mappable(node: node, parameter: parameter)
        midi.learning = (node, parameter)
        engine.setMIDILearning(true)
    }

    /// Removes every mapping to `node`'s `parameter` (and a `learn` waiting
    /// for it); returns the mappings removed.
    @discardableResult
    package func unlearn(node: String, parameter: String) throws(LiveSessionError) -> [MIDIMapping] {
        try requireNode(node)
        let destination = "\(node):\(parameter)"
        let removed = midi.control.mappings.filter { $0.destination == destination }
        let wasLearning = midi.learning.map { $0.node == node && $0.target == parameter } ?? false
        guard !removed.isEmpty || wasLearning else {
            throw .noMapping(destination, mapped: midi.control.mappings.map(\.destination))
        }
        if wasLearning {
            midi.learning = nil
            engine.setMIDILearning(false)
        }
        guard !removed.isEmpty else { return [] }
        midi.control.mappings.removeAll { $0.destination == destination }
        try publishMIDIChange()
        return removed
    }

    // MARK: Scenes

    /// Switches to scene `name`: every value and bypass it holds reaches the
    /// realtime thread in one batch of commands, applied in one cycle.
    /// Returns the changes to announce (the scene, then each value).
    package func applyScene(_ name: String) throws(LiveSessionError) -> [LiveSessionChange] {
        guard let scene = midi.control.scene(named: name) else {
            throw .unknownScene(name, known: midi.control.scenes.map(\.name))
        }
        guard !serverHasShutDown else { throw .serverGone }
        try requireNoBounce()
        let resolved = try resolve(scene, strict: true)
        var commands: [LiveCommand] = resolved.parameters.map { .setFloat($0.target, $0.value) }
        commands += resolved.bypasses.map { .setFlag($0.flag, $0.on ? 1 : 0) }
        do {
            try engine.send(batch: commands)
        } catch {
            throw .engine(error)
        }
        return record(resolved)
    }

    /// Records what a scene set (values, bypass in the graph); returns its changes.
    private func record(_ scene: LiveMIDIState.ResolvedScene) -> [LiveSessionChange] {
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
        defer { midi.undelivered = [] }
        return midi.undelivered
    }

    /// Takes and records what the realtime thread applied, keeping the
    /// changes for the next `drainMIDI`. Every graph edit starts with this
    /// (`rewrite`), so the graph it compiles has every bypass a controller set.
    func absorbMIDIActivity() {
        let reports = engine.takeMIDIActivity()
        guard !reports.isEmpty else { return }
        var order: [String] = []
        var latest: [String: LiveSessionChange] = [:]
        func keep(_ key: String, _ change: LiveSessionChange) {
            if latest[key] == nil { order.append(key) }
            latest[key] = change
        }
        for report in reports {
            switch report.kind {
            case .controllerSeen:
                guard let learned = completeLearning(controller: Int(report.controller), channel: Int(report.channel)) else { continue }
                keep("mapped \(learned.destination)", .mapped(learned))
            case .parameter, .bypass:
                guard let resolution = midi.resolutions[report.generation],
                      resolution.mappings.indices.contains(Int(report.index)) else { continue }
                switch resolution.mappings[Int(report.index)].target {
                case .parameter(let node, let symbol, _, _):
                    keep("\(node):\(symbol)", .parameter(node: node, parameter: symbol, value: report.value))
                case .bypass(let node):
                    keep("\(node):bypass", .bypass(node: node, on: report.value != 0))
                case .scene:
                    continue
                }
            case .scene:
                guard let resolution = midi.resolutions[report.generation],
                      resolution.scenes.indices.contains(Int(report.index)) else { continue }
                let scene = resolution.scenes[Int(report.index)]
                keep("scene \(scene.name)", .sceneApplied(scene.name))
                for parameter in scene.parameters {
                    keep("\(parameter.node):\(parameter.symbol)",
                         .parameter(node: parameter.node, parameter: parameter.symbol, value: parameter.value))
                }
                for bypass in scene.bypasses {
                    keep("\(bypass.node):bypass", .bypass(node: bypass.node, on: bypass.on))
                }
            }
        }
        let changes = order.compactMap { latest[$0] }
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
        midi.undelivered += changes
    }

    /// The mapping a `learn` makes of the controller that moved (replacing
    /// earlier mappings to the same parameter), published; nil when no
    /// `learn` waits.
    private func completeLearning(controller: Int, channel: Int) -> MIDIMapping? {
        guard let (node, parameter) = midi.learning else { return nil }
        midi.learning = nil
        engine.setMIDILearning(false)
        let target: MIDIMapping.Target = parameter == "bypass" ? .bypass(node: node)
            : .parameter(node: node, symbol: parameter, range: nil, curve: .linear)
        let mapping = MIDIMapping(trigger: .controller(controller), channel: channel, target: target)
        midi.control.mappings.removeAll { $0.destination == mapping.destination }
        midi.control.mappings.append(mapping)
        midi.control.isDeclared = true
        // Not published (the server went away): the next program carries it.
        try? publishMIDIChange()
        return mapping
    }

    // MARK: Tables

    /// Has the realtime thread take the current mappings: the running plan's
    /// program again, with a new table.
    private func publishMIDIChange() throws(LiveSessionError) {
        guard !serverHasShutDown else { throw .serverGone }
        try requireNoBounce()
        try publishAndWait(makeProgram(for: plan))
    }

    /// Gives `live` (a program for `plan`) its MIDI table: the mappings and
    /// scenes resolved against `plan`, whose memory the program's owner keeps.
    func attachMIDI(to live: inout LiveProgram, plan: RenderPlan) {
        guard !midi.control.mappings.isEmpty, let owner = live.owner else { return }
        var controllers: [MIDIControlTable.Controller] = []
        var programs: [MIDIControlTable.Program] = []
        for (index, mapping) in midi.control.mappings.enumerated() {
            let channel = UInt8(mapping.channel ?? 0)
            switch (mapping.trigger, mapping.target) {
            case (.controller(let number), .parameter(let node, let symbol, _, _)):
                guard let unit = try? unit(named: node), let info = unit.parameters.first(where: { $0.symbol == symbol }),
                      let scale = try? mapping.scale(for: info), let target = unit.controlPointer(symbol: symbol) else { continue }
                controllers.append(MIDIControlTable.Controller(
                    controller: UInt8(number), channel: channel, smoothed: scale.stepping == .continuous, scale: scale,
                    value: target, flag: nil, mapping: Int32(index)))
            case (.controller(let number), .bypass(let node)):
                guard let flag = plan.bypassFlag(of: node) else { continue }
                controllers.append(MIDIControlTable.Controller(
                    controller: UInt8(number), channel: channel, smoothed: false,
                    scale: MIDIControllerScale(low: 0, high: 1, stepping: .toggle), value: nil, flag: flag, mapping: Int32(index)))
            case (.program(let number), .scene(let name)):
                guard let scene = midi.control.scenes.firstIndex(where: { $0.name == name }) else { continue }
                programs.append(MIDIControlTable.Program(program: UInt8(number), channel: channel, scene: Int32(scene)))
            default:
                continue
            }
        }
        let scenes = midi.control.scenes.map { scene in
            (try? resolve(scene, strict: false, plan: plan)) ?? LiveMIDIState.ResolvedScene(name: scene.name, parameters: [], bypasses: [])
        }
        midi.generation &+= 1
        let storage = MIDIControlTableStorage(controllers: controllers, programs: programs, scenes: scenes,
                                              generation: midi.generation)
        owner.midi = storage
        live.midi = storage.table
        midi.resolutions[midi.generation] = LiveMIDIState.Resolution(mappings: midi.control.mappings, scenes: scenes)
        midi.resolutions[midi.generation &- LiveMIDIState.keptResolutions] = nil
    }

    /// Where each of `scene`'s values goes in `plan` (the running one when
    /// nil). `strict`: an unknown node or parameter, or a value out of range,
    /// is an error; otherwise it is left out (a node a later edit removed).
    private func resolve(_ scene: SceneDeclaration, strict: Bool, plan: RenderPlan? = nil) throws(LiveSessionError)
        -> LiveMIDIState.ResolvedScene {
        let plan = plan ?? self.plan
        var resolved = LiveMIDIState.ResolvedScene(name: scene.name, parameters: [], bypasses: [])
        for setting in scene.nodes {
            let unit: any ProcessingUnit
            do {
                unit = try self.unit(named: setting.node)
            } catch {
                if strict { throw error }
                continue
            }
            for parameter in setting.parameters {
                do throws(UnitError) {
                    let value = try unit.checkedValue(parameter.symbol, parameter.value)
                    guard let target = unit.controlPointer(symbol: parameter.symbol) else {
                        throw UnitError("`\(unit.displayName)` cannot change `\(parameter.symbol)` while it plays")
                    }
                    resolved.parameters.append((setting.node, parameter.symbol, value, target))
                } catch {
                    if strict { throw .unit(node: setting.node, error) }
                }
            }
            if let on = setting.bypass, let flag = plan.bypassFlag(of: setting.node) {
                resolved.bypasses.append((setting.node, on, flag))
            }
        }
        return resolved
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
