import HostCore

/// A live session's MIDI control on the control thread: the mappings and
/// scenes (the patch's, then as `learn` and `unlearn` change them), a
/// `learn` waiting for a controller, the tables made for programs, and what
/// the indices of each recent table mean, so a report read after a newer
/// table was published still names the right parameter. The session does
/// what reaches the engine and records what this makes of the reports.
struct LiveMIDIControl {
    /// A scene resolved against one plan: where each value goes.
    struct ResolvedScene {
        var name: String
        var parameters: [(node: String, symbol: String, value: Float, target: UnsafeMutablePointer<Float>)]
        var bypasses: [(node: String, on: Bool, flag: UnsafeMutablePointer<UInt8>)]
        /// How each of `parameters` glides (same indices).
        var shapes: [SceneGlideShape] = []
    }

    /// A morph's two scenes resolved against one plan: what both name, paired.
    struct ResolvedMorph {
        var parameters: [(node: String, symbol: String, target: UnsafeMutablePointer<Float>, first: Float, second: Float,
                          shape: SceneGlideShape)] = []
        var bypasses: [(node: String, flag: UnsafeMutablePointer<UInt8>, first: Bool, second: Bool)] = []

        init(_ first: ResolvedScene, _ second: ResolvedScene) {
            for (index, parameter) in first.parameters.enumerated() {
                guard let other = second.parameters.first(where: { $0.target == parameter.target }) else { continue }
                let shape = index < first.shapes.count ? first.shapes[index] : .atEnd
                parameters.append((parameter.node, parameter.symbol, parameter.target, parameter.value, other.value, shape))
            }
            for bypass in first.bypasses {
                guard let other = second.bypasses.first(where: { $0.flag == bypass.flag }) else { continue }
                bypasses.append((bypass.node, bypass.flag, bypass.on, other.on))
            }
        }
    }

    /// What one table's indices mean.
    private struct Resolution {
        /// Index `i` of a report is `mappings[i]`.
        var mappings: [MIDIMapping]
        var scenes: [ResolvedScene]
        /// The morphs, by their mapping's index.
        var morphs: [Int32: ResolvedMorph] = [:]
    }

    /// The mappings and scenes as they stand: what `save` writes back.
    private(set) var control: MIDIControl
    /// `learn NODE PARAM` waiting for the next controller: the node and the
    /// parameter's symbol (or `bypass`).
    private var learning: (node: String, target: String)?
    private var generation: Int32 = 0
    /// The last few tables' meanings, by generation.
    private var resolutions: [Int32: Resolution] = [:]
    /// The scene last switched to (a command or a program change), for the status.
    var currentScene: String?
    /// Changes taken from the realtime thread and recorded, not yet announced.
    private var undelivered: [LiveSessionChange] = []
    /// Program changes no scene took, in order, until `takePrograms` (a setlist's switches).
    private var programs: [Int] = []
    /// How many tables back a report may come from and still be announced.
    private static let keptResolutions: Int32 = 8

    init(control: MIDIControl) { self.control = control }

    /// `node:param` a `learn` waits for a controller to map, if any.
    var learningDestination: String? { learning.map { "\($0.node):\($0.target)" } }

    /// What `replace` took, for `undo` when the engine refused the new table.
    struct Replaced {
        fileprivate let control: MIDIControl
        fileprivate let learning: (node: String, target: String)?
        fileprivate let scene: String?
        /// Whether a `learn` was waiting (the engine's learning is then turned off).
        var wasLearning: Bool { learning != nil }
    }

    /// Another patch's mappings and scenes (a setlist's switch): a `learn`
    /// waiting for the old patch's node, and the old patch's scene, go with
    /// the old patch; neither may outlive it.
    mutating func replace(_ control: MIDIControl) -> Replaced {
        let replaced = Replaced(control: self.control, learning: learning, scene: currentScene)
        self.control = control
        learning = nil
        currentScene = nil
        return replaced
    }

    /// Puts back what a refused `replace` took.
    mutating func undo(_ replaced: Replaced) {
        control = replaced.control
        learning = replaced.learning
        currentScene = replaced.scene
    }

    mutating func learn(node: String, parameter: String) { learning = (node, parameter) }

    /// Removes every mapping to `node`'s `parameter` and a `learn` waiting
    /// for it; returns the mappings removed and whether a `learn` waited.
    mutating func unlearn(node: String, parameter: String) throws(LiveSessionError)
        -> (removed: [MIDIMapping], wasLearning: Bool) {
        let destination = "\(node):\(parameter)"
        let removed = control.mappings.filter { $0.destination == destination }
        let wasLearning = learning.map { $0.node == node && $0.target == parameter } ?? false
        guard !removed.isEmpty || wasLearning else {
            throw .noMapping(destination, mapped: control.mappings.map(\.destination))
        }
        if wasLearning { learning = nil }
        control.mappings.removeAll { $0.destination == destination }
        return (removed, wasLearning)
    }

    func scene(named name: String) throws(LiveSessionError) -> SceneDeclaration {
        guard let scene = control.scene(named: name) else {
            throw .unknownScene(name, known: control.scenes.map(\.name))
        }
        return scene
    }

    // MARK: What the realtime thread did

    /// What `reports` (taken from the realtime thread) mean: the latest value
    /// per parameter and bypass per node, so a sweep does not flood
    /// listeners, and the mapping a `learn` made of a controller that moved.
    /// They wait in this part for `takeUndelivered`; the session records them.
    /// Taps of tap tempo are not changes yet: their frame times come back, in
    /// order, for the session's transport to count.
    mutating func absorb(_ reports: [MIDIActivity])
        -> (changes: [LiveSessionChange], learned: MIDIMapping?, taps: [UInt32]) {
        var order: [String] = []
        var latest: [String: LiveSessionChange] = [:]
        var learned: MIDIMapping?
        var taps: [UInt32] = []
        func keep(_ key: String, _ change: LiveSessionChange) {
            if latest[key] == nil { order.append(key) }
            latest[key] = change
        }
        for report in reports {
            switch report.kind {
            case .tempoTap:
                taps.append(report.frameTime)
            case .program:
                programs.append(Int(report.index))
            case .controllerSeen:
                guard let (mapping, replaced) = completeLearning(controller: Int(report.controller),
                                                                 channel: Int(report.channel)) else { continue }
                learned = mapping
                keep("mapped \(mapping.destination)", .mapped(mapping, replacing: replaced))
            case .parameter, .bypass:
                guard let resolution = resolutions[report.generation],
                      resolution.mappings.indices.contains(Int(report.index)) else { continue }
                switch resolution.mappings[Int(report.index)].target {
                case .parameter(let node, let symbol, _, _):
                    keep("\(node):\(symbol)", .parameter(node: node, parameter: symbol, value: report.value))
                case .bypass(let node):
                    keep("\(node):bypass", .bypass(node: node, on: report.value != 0))
                case .morph:
                    guard let morph = resolution.morphs[report.index] else { continue }
                    let position = SceneMorph.position(controller: Int(report.value))
                    for parameter in morph.parameters {
                        let value = SceneMorph.blend(parameter.first, parameter.second, shape: parameter.shape, position: position)
                        keep("\(parameter.node):\(parameter.symbol)",
                             .parameter(node: parameter.node, parameter: parameter.symbol, value: value))
                    }
                    for bypass in morph.bypasses {
                        keep("\(bypass.node):bypass", .bypass(node: bypass.node, on: position >= 0.5 ? bypass.second : bypass.first))
                    }
                case .scene, .tempoTap:
                    continue
                }
            case .scene:
                guard let resolution = resolutions[report.generation],
                      resolution.scenes.indices.contains(Int(report.index)) else { continue }
                let scene = resolution.scenes[Int(report.index)]
                keep("scene \(scene.name)", .sceneApplied(scene.name))
                currentScene = scene.name
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
        undelivered += changes
        return (changes, learned, taps)
    }

    /// The program changes no scene took since the last call, in order.
    mutating func takePrograms() -> [Int] {
        defer { programs = [] }
        return programs
    }

    /// A change the session made of what was absorbed (a tempo from taps), to announce with the rest.
    mutating func deliverLater(_ change: LiveSessionChange) { undelivered.append(change) }

    /// The changes absorbed since the last call, to announce.
    mutating func takeUndelivered() -> [LiveSessionChange] {
        defer { undelivered = [] }
        return undelivered
    }

    /// The mapping a `learn` makes of the controller that moved, and the
    /// mappings it replaces: those to the same parameter, and those the same
    /// controller (on its channel or any) moved, which would otherwise move
    /// both. nil when no `learn` waits.
    private mutating func completeLearning(controller: Int, channel: Int) -> (MIDIMapping, replaced: [MIDIMapping])? {
        guard let (node, parameter) = learning else { return nil }
        learning = nil
        let target: MIDIMapping.Target = parameter == "bypass" ? .bypass(node: node)
            : .parameter(node: node, symbol: parameter, range: nil, curve: .linear)
        let mapping = MIDIMapping(trigger: .controller(controller), channel: channel, target: target)
        let replacing: (MIDIMapping) -> Bool = {
            $0.destination == mapping.destination
                || ($0.trigger == mapping.trigger && ($0.channel == nil || $0.channel == mapping.channel))
        }
        let replaced = control.mappings.filter(replacing).filter {
            // The same mapping learned again replaces nothing worth naming.
            !($0.trigger == mapping.trigger && $0.channel == mapping.channel && $0.target == mapping.target)
        }
        control.mappings.removeAll(where: replacing)
        control.mappings.append(mapping)
        control.isDeclared = true
        return (mapping, replaced)
    }

    // MARK: Tables

    /// The table of a program for `plan` (of `graph`): the mappings and
    /// scenes resolved against it, their meaning kept under a new
    /// generation. nil when nothing is mapped.
    mutating func makeTable(for plan: RenderPlan, graph: AudioGraph) -> MIDIControlTableStorage? {
        guard !control.mappings.isEmpty else { return nil }
        let scenes = control.scenes.map { scene in
            (try? Self.resolve(scene, strict: false, graph: graph, plan: plan))
                ?? ResolvedScene(name: scene.name, parameters: [], bypasses: [])
        }
        var controllers: [MIDIControlTable.Controller] = []
        var programs: [MIDIControlTable.Program] = []
        var morphs: [ResolvedMorph] = []
        var morphsByMapping: [Int32: ResolvedMorph] = [:]
        for (index, mapping) in control.mappings.enumerated() {
            let channel = UInt8(mapping.channel ?? 0)
            switch (mapping.trigger, mapping.target) {
            case (.controller(let number), .parameter(let node, let symbol, _, _)):
                guard let unit = try? LiveSession.unit(named: node, in: graph),
                      let info = unit.parameters.first(where: { $0.symbol == symbol }),
                      let scale = try? mapping.scale(for: info), let target = unit.controlPointer(symbol: symbol) else { continue }
                controllers.append(MIDIControlTable.Controller(
                    controller: UInt8(number), channel: channel, smoothed: scale.stepping == .continuous, scale: scale,
                    value: target, flag: nil, mapping: Int32(index)))
            case (.controller(let number), .bypass(let node)):
                guard let flag = plan.bypassFlag(of: node) else { continue }
                controllers.append(MIDIControlTable.Controller(
                    controller: UInt8(number), channel: channel, smoothed: false,
                    scale: MIDIControllerScale(low: 0, high: 1, stepping: .toggle), value: nil, flag: flag, mapping: Int32(index)))
            case (.controller(let number), .tempoTap):
                controllers.append(MIDIControlTable.Controller(
                    controller: UInt8(number), channel: channel, smoothed: false,
                    scale: MIDIControllerScale(low: 0, high: 1, stepping: .toggle), value: nil, flag: nil, mapping: Int32(index),
                    tapsTempo: true))
            case (.program(let number), .scene(let name)):
                guard let scene = control.scenes.firstIndex(where: { $0.name == name }) else { continue }
                programs.append(MIDIControlTable.Program(program: UInt8(number), channel: channel, scene: Int32(scene),
                                                         glideFrames: SceneGlideTime.frames(mapping.glide ?? 0,
                                                                                            sampleRate: plan.format.sampleRate)))
            case (.controller(let number), .morph(let first, let second)):
                guard let from = scenes.first(where: { $0.name == first }), let to = scenes.first(where: { $0.name == second })
                else { continue }
                let morph = ResolvedMorph(from, to)
                controllers.append(MIDIControlTable.Controller(
                    controller: UInt8(number), channel: channel, smoothed: false,
                    scale: MIDIControllerScale(low: 0, high: 127), value: nil, flag: nil, mapping: Int32(index),
                    morph: Int32(morphs.count)))
                morphs.append(morph)
                morphsByMapping[Int32(index)] = morph
            default:
                continue
            }
        }
        generation &+= 1
        let storage = MIDIControlTableStorage(controllers: controllers, programs: programs, scenes: scenes,
                                              morphs: morphs, generation: generation)
        resolutions[generation] = Resolution(mappings: control.mappings, scenes: scenes, morphs: morphsByMapping)
        resolutions[generation &- Self.keptResolutions] = nil
        return storage
    }

    /// Where each of `scene`'s values goes in `plan` (of `graph`). `strict`:
    /// an unknown node or parameter, or a value out of range, is an error;
    /// otherwise it is left out (a node a later edit removed).
    static func resolve(_ scene: SceneDeclaration, strict: Bool, graph: AudioGraph, plan: RenderPlan) throws(LiveSessionError)
        -> ResolvedScene {
        var resolved = ResolvedScene(name: scene.name, parameters: [], bypasses: [])
        for setting in scene.nodes {
            let unit: any ProcessingUnit
            do {
                unit = try LiveSession.unit(named: setting.node, in: graph)
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
                    resolved.shapes.append(unit.parameters.first { $0.symbol == parameter.symbol }.map(SceneGlideShape.init) ?? .atEnd)
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
}
