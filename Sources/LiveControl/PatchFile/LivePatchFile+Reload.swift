import JackIO
import HostCore

/// `--watch`: the file's new text brought into the running graph. Values
/// that changed become parameter and bypass commands; added, removed and
/// rewired nodes become one graph edit that keeps every unchanged plugin's
/// unit (so its instances and state); a file that does not read, or asks
/// what cannot change while playing, is refused and the old graph plays on.
extension LivePatchFile {
    /// The changes made, to be announced; a refusal is announced too
    /// (`.patchRefused`, with `file:line:column`) and changes nothing. Throws
    /// only what the session itself refuses (the server gone, a bounce).
    /// `newText` nil: the file is read now (`reload`).
    package func reload(_ session: LiveSession, text given: String?) throws(LiveSessionError) -> [ControlChange.Kind] {
        guard let path else {
            return [.patchRefused(reason: "this run plays a --chain, not a patch file, so there is no file to reload")]
        }
        var newText = given ?? ""
        if given == nil {
            do {
                newText = try PatchFileReader.read(path: path)
            } catch {
                return [.patchRefused(reason: error.description)]
            }
        }
        guard newText != text else { return [] }
        let newPatch: Patch
        do {
            newPatch = try PatchParser.parse(text: newText, path: path)
        } catch {
            return [.patchRefused(reason: error.description)]
        }
        switch try apply(newPatch, text: newText, path: path, session: session) {
        case .success(let changes): return changes
        case .failure(let error): return [.patchRefused(reason: error.description)]
        }
    }

    /// A setlist's switch: the patch file at `newPath` becomes the one
    /// playing, by the same difference a reload applies (plugins in both
    /// kept with their state, one graph edit at a block boundary, taps of
    /// the same file going on), its MIDI mappings and scenes taking over.
    /// A patch that does not read or fit is refused, and nothing changes.
    /// With `spill`, the old patch's nodes the new one does not keep ring on (`SetlistSpill`).
    /// `check` refuses a patch that does not fit the run (other ports than the first's).
    func switchPatch(_ session: LiveSession, to newPath: String, spill: SetlistSpill?,
                     check: (Patch) throws(GraphError) -> Void = { _ in }) throws(ControlError.Reason)
        -> [ControlChange.Kind] {
        let newPatch: Patch
        let newText: String
        do {
            newText = try PatchFileReader.read(path: newPath)
            newPatch = try PatchParser.parse(text: newText, path: newPath)
        } catch {
            throw .refused(error.description)
        }
        do {
            try check(newPatch)
        } catch {
            throw .refused(error.description)
        }
        // What `learn` made and did not save, and a `learn` waiting: they go with the old patch, and are announced so.
        let learned = session.midiControl.mappings.filter { !patch.midiControl.mappings.contains($0) }
        let waiting = session.midiLearning
        let result: Result<[ControlChange.Kind], GraphError>
        do {
            result = try apply(newPatch, text: newText, path: newPath, session: session, spill: spill, midiControl: newPatch.midiControl)
        } catch {
            throw .session(error)
        }
        switch result {
        case .success(let changes):
            let dropped = (learned.map(\.destination) + (waiting.map { [$0] } ?? [])).compactMap { destination -> ControlChange.Kind? in
                let parts = destination.split(separator: ":", maxSplits: 1).map(String.init)
                return parts.count == 2 ? .unmapped(node: parts[0], parameter: parts[1]) : nil
            }
            return changes + dropped
        case .failure(let error): throw .refused(error.description)
        }
    }

    /// The difference between the running graph and `newPatch` (read from
    /// `path`), applied; `.failure` when the patch does not fit, and then
    /// nothing changed. Throws only what the session itself refuses before
    /// anything changed: once the new graph plays, the patch is remembered
    /// (`save` writes it where it came from) and a value the session then
    /// refuses is announced as a `.patchRefused` sentence. `midiControl`
    /// (a setlist's switch) reaches the engine with the new graph.
    private func apply(_ newPatch: Patch, text newText: String, path: String, session: LiveSession,
                       spill: SetlistSpill? = nil, midiControl: MIDIControl? = nil)
        throws(LiveSessionError) -> Result<[ControlChange.Kind], GraphError> {
        let plan: ReloadPlan
        do {
            plan = try ReloadPlan(from: patch, to: newPatch, running: session, folder: Self.folder(of: path),
                                  oldFolder: folder, makeUnit: makeUnit)
        } catch {
            return .failure(error)
        }
        var changes: [ControlChange.Kind] = []
        if let graph = plan.graph {
            // A node whose plugin changed keeps its name: its recorded values are the new unit's.
            let renewed = plan.added.filter { plan.removed.contains($0) }
            // With a new spill if it can be made (it is the old patch's own wiring, which compiled), else
            // with the spills still ringing carried over as they are, else (they do not fit) without.
            let running = session.graph
            let spilling = spill.flatMap { try? $0.graph(graph, running: running, removed: plan.removed) }
            let keeping = try? SetlistSpill.keepingSpills(graph, running: running)
            for candidate in [spilling, keeping].compactMap({ $0 }) + [graph] {
                do {
                    try session.replaceGraph(with: candidate, newUnits: renewed, midiControl: midiControl)
                    break
                } catch {
                    guard case .graph(let error) = error else { throw error }
                    if candidate === graph { return .failure(error) }
                }
            }
            changes.append(.patchReloaded(added: plan.added, removed: plan.removed.filter { !SetlistSpill.isSpillNode($0) },
                                          rewired: plan.rewired))
        } else if let midiControl {
            try session.replaceMIDIControl(midiControl)
        }
        // The new graph plays: from here the file is the one playing, whatever a value then meets.
        remember(plan.patch, text: newText, path: path)
        do throws(LiveSessionError) {
            for (node, preset) in plan.presets {
                try session.applyPreset(node: node, name: preset)
                changes.append(.presetApplied(node: node, name: preset))
            }
            for change in plan.parameters {
                let stored = try session.setParameter(node: change.node, symbol: change.symbol, value: .number(Double(change.value)))
                changes.append(.parameter(node: change.node, parameter: change.symbol, value: stored))
            }
            for change in plan.messages {
                let sent = try session.setMessageParameter(node: change.node, name: change.name, value: change.value)
                changes.append(.property(node: change.node, property: change.name, value: sent))
            }
            for (node, on) in plan.bypasses {
                try session.setBypass(node: node, on)
                changes.append(.bypass(node: node, on: on))
            }
        } catch {
            changes.append(.patchRefused(reason: "\(Self.absolute(path)) plays, but not all of its values and presets were set: \(error.description)"))
        }
        return .success(changes)
    }
}

/// What a reload changes, worked out (and checked) before anything is:
/// the new graph, if the nodes or wiring changed, and the commands for
/// kept plugins.
struct ReloadPlan {
    let patch: Patch
    private(set) var graph: AudioGraph?
    private(set) var added: [String] = []
    private(set) var removed: [String] = []
    private(set) var rewired = false
    private(set) var presets: [(node: String, name: String)] = []
    private(set) var parameters: [(node: String, symbol: String, value: Float)] = []
    private(set) var bypasses: [(node: String, on: Bool)] = []
    /// Message parameters to send (a path already made absolute from the patch's folder).
    private(set) var messages: [(node: String, name: String, value: ParameterValue)] = []

    /// `folder`: the new patch's; `oldFolder`: the old one's, when a setlist's patches live apart.
    init(from old: Patch, to new: Patch, running session: LiveSession, folder: String?, oldFolder: String? = nil,
         makeUnit: LivePatchFile.UnitMaker) throws(GraphError) {
        patch = new
        let running = session.graph
        var nodes: [GraphNode] = []
        for declaration in new.nodes {
            let current = running.node(named: declaration.name)
            let before = old.node(named: declaration.name)
            switch declaration.kind {
            case .plugin(let spec):
                if let current, case .unit(let unit, let bypassed) = current.kind,
                   case .plugin(let was)? = before?.kind, was.plugin == spec.plugin {
                    try keep(unit, node: declaration.name, was: was, now: spec, bypassed: bypassed, session: session)
                    try keepMessages(unit, node: declaration.name, now: spec, presetChanged: was.preset != spec.preset,
                                     folder: folder)
                    nodes.append(GraphNode(name: declaration.name, kind: current.kind, location: declaration.location))
                } else {
                    let unit = try PatchLoader.makeUnit(declaration.name, spec, at: declaration.location, folder: folder,
                                                        making: makeUnit)
                    nodes.append(GraphNode(name: declaration.name, kind: .unit(unit, bypass: spec.bypass),
                                           location: declaration.location))
                    if current != nil { removed.append(declaration.name) }
                    added.append(declaration.name)
                }
            case .mix(let channels):
                if case .mixer(channels)? = current?.kind {} else { replaced(declaration.name, existed: current != nil) }
                nodes.append(GraphNode(name: declaration.name, kind: .mixer(channels: channels), location: declaration.location))
            case .gain(let decibels):
                if case .gain(decibels)? = current?.kind {} else { replaced(declaration.name, existed: current != nil) }
                nodes.append(GraphNode(name: declaration.name, kind: .gain(decibels: decibels), location: declaration.location))
            case .input, .output, .file, .midiInput, .midiOutput, .midiFile:
                guard let current, let before, Self.sameEndpoint(before.kind, declaration.kind) else {
                    throw Self.fixed(declaration.name, at: declaration.location)
                }
                nodes.append(GraphNode(name: declaration.name, kind: current.kind, location: declaration.location))
            }
        }
        // A spill's nodes are the setlist's to remove, never a reload's: its tail rings on.
        for node in running.nodes where new.node(named: node.name) == nil && !SetlistSpill.isSpillNode(node.name) {
            switch node.kind {
            case .input, .output, .filePlayer, .midiInput, .midiOutput, .midiFile:
                throw Self.fixed(node.name, at: new.nodes.first?.location)
            default: removed.append(node.name)
            }
        }
        let taps = Self.taps(of: new, old: old, running: running, folder: folder, oldFolder: oldFolder ?? folder)
        rewired = !Self.same(running.connectionDeclarations, new.connections)
        let retapped = running.tapDeclarations.map(\.description) != taps.map(\.description)
        guard !added.isEmpty || !removed.isEmpty || rewired || retapped else { return }
        let graph = try GraphRewrite(nodes: nodes, connections: new.connections, taps: taps).apply()
        for tap in graph.taps { try TapFileCheck.requireFolder(tap) }
        self.graph = graph
    }

    private mutating func replaced(_ node: String, existed: Bool) {
        if existed { removed.append(node) }
        added.append(node)
    }

    /// A kept plugin: the commands that take it from its values now to the file's.
    private mutating func keep(_ unit: any ProcessingUnit, node: String, was: PluginNodeSpec, now: PluginNodeSpec,
                               bypassed: Bool, session: LiveSession) throws(GraphError) {
        let presetChanged = was.preset != now.preset
        if presetChanged, let preset = now.preset { presets.append((node, preset)) }
        // After a preset, every value the file gives is sent again.
        var loaded: [String: Float] = [:]
        do throws(UnitError) {
            if let preset = now.preset { loaded = try unit.presetParameterValues(preset)?.values ?? [:] }
        } catch {
            throw GraphError(node: node, error, at: now.presetLocation)
        }
        let current = session.parameterValues(node: node)
        func value(_ symbol: String) -> Float? { current[symbol] ?? unit.parameterValue(symbol) }
        for setting in now.parameters where !unit.isMessageParameter(setting.symbol) {
            let checked: Float
            do {
                checked = try unit.checkedValue(setting.symbol, setting.value)
            } catch {
                throw GraphError(node: node, error, at: setting.location)
            }
            if presetChanged || value(setting.symbol) != checked { parameters.append((node, setting.symbol, checked)) }
        }
        // A value the file no longer gives goes back to what loading the file gives it.
        for setting in was.parameters where !now.parameters.contains(where: { $0.symbol == setting.symbol }) {
            guard let info = unit.parameters.first(where: { $0.symbol == setting.symbol }) else { continue }
            let fresh = loaded[info.symbol] ?? info.defaultValue
            if value(info.symbol) != fresh { parameters.append((node, info.symbol, fresh)) }
        }
        if bypassed != now.bypass { bypasses.append((node, now.bypass)) }
    }

    /// A kept plugin's message parameters (a file, a sample): each the file
    /// gives that differs from what was last sent (all of them after a new
    /// preset), checked here so a missing file is refused at its line.
    private mutating func keepMessages(_ unit: any ProcessingUnit, node: String, now: PluginNodeSpec,
                                       presetChanged: Bool, folder: String?) throws(GraphError) {
        let sent = unit.messageParametersSet()
        for setting in now.parameters {
            guard let name = unit.messageParameterShortName(setting.symbol) else { continue }
            let checked: String
            do {
                checked = try unit.checkedMessageParameter(setting.symbol, setting.value, relativeTo: folder)
            } catch {
                throw GraphError(node: node, error, at: setting.location)
            }
            let current = sent.first { $0.name == name }
            let isPath = current?.isPath ?? false
            let unchanged = current.map { (try? unit.checkedMessageParameter(name, $0.value, relativeTo: nil)) == checked } ?? false
            guard presetChanged || !unchanged else { continue }
            // A path goes absolute: the session takes relative ones from the working directory.
            let value: ParameterValue = isPath || checked.hasPrefix("/") && setting.value != .label(checked)
                ? .label(checked) : setting.value
            messages.append((node, name, value))
        }
    }

    /// The file's taps (paths resolved as `PatchLoader` does), then the taps
    /// started from the console or the command line, which the file never
    /// had, on nodes that are still there.
    private static func taps(of new: Patch, old: Patch, running: AudioGraph, folder: String?, oldFolder: String?) -> [TapDeclaration] {
        // The old patch's taps as they were resolved: from its own folder.
        let declared = Set(old.taps.map { PatchLoader.resolve($0.file, in: oldFolder) })
        var taps = new.taps.map { TapDeclaration(at: $0.at, file: PatchLoader.resolve($0.file, in: folder), location: $0.location) }
        for tap in running.tapDeclarations where !declared.contains(tap.file) && new.node(named: tap.at.node) != nil
            && !taps.contains(where: { $0.file == tap.file }) {
            taps.append(tap)
        }
        return taps
    }

    /// The same input, output or file source, wherever it is written.
    private static func sameEndpoint(_ a: NodeKind, _ b: NodeKind) -> Bool {
        if case .midiFile(var first) = a, case .midiFile(var second) = b {
            first.pathLocation = nil
            second.pathLocation = nil
            return first == second
        }
        guard case .file(var first) = a, case .file(var second) = b else { return a == b }
        first.pathLocation = nil
        second.pathLocation = nil
        return first == second
    }

    private static func fixed(_ node: String, at location: SourceLocation?) -> GraphError {
        GraphError("node `\(node)`: live inputs, outputs and file sources cannot be added, removed or changed while fxhost"
                   + " runs (their JACK ports and disk streams are made at start)",
                   at: location, suggestion: "restart `fxhost run` to take this change")
    }

    private static func same(_ a: [ConnectionDeclaration], _ b: [ConnectionDeclaration]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy {
            $0.from.description == $1.from.description && $0.to.description == $1.to.description
                && $0.gainDecibels == $1.gainDecibels
        }
    }
}

private extension TapDeclaration {
    var description: String { "\(at) \(file)" }
}
