/// The patches a setlist lists, read and checked against each other: a
/// switch keeps the JACK ports, the file sources and the MIDI control ports
/// the run started with (they are made once, at start), so every patch must
/// declare the same inputs, outputs, file sources and MIDI ports as the
/// first, and the same `clock:` (its ports are made once too); what lies
/// between them (plugins, wiring, taps, mappings, scenes) is each patch's
/// own. The tempo and meter carry on from the first patch: a later patch's
/// `tempo:` is not applied by a switch.
extension Setlist {
    /// Every patch, read as `PatchParser` reads one (errors at the patch
    /// file's own `file:line:column`; a file that cannot be read at the
    /// setlist's line naming it), and checked against the first.
    package func readPatches() throws(GraphError) -> [Patch] {
        var patches: [Patch] = []
        for entry in entries {
            let patch: Patch
            do {
                patch = try PatchParser.load(path: entry.path)
            } catch {
                var error = error
                if error.location == nil { error.location = entry.location }
                throw error
            }
            if let first = patches.first { try Self.requireSameEnds(patch, as: first, firstName: entries[0].name) }
            patches.append(patch)
        }
        return patches
    }

    /// Refuses `patch` when its inputs, outputs, file sources, MIDI ports or `clock:` differ from `first`'s.
    package static func requireSameEnds(_ patch: Patch, as first: Patch, firstName: String) throws(GraphError) {
        let rule = "every patch of a setlist declares the inputs, outputs, file sources and MIDI ports of the first"
            + " (`\(firstName)`), as it wrote them: they are made once, when the run starts"
        for node in patch.nodes where isEnd(node.kind) {
            guard let other = first.node(named: node.name), sameEnd(node.kind, other.kind) else {
                throw GraphError("node `\(node.name)` differs from the first patch's; \(rule)", at: node.location)
            }
        }
        for node in first.nodes where isEnd(node.kind) && patch.node(named: node.name) == nil {
            throw GraphError("node `\(node.name)` of the first patch is missing here; \(rule)",
                             at: patch.nodes.first?.location ?? patch.sourcePath.map { SourceLocation(file: $0, line: 1, column: 1) })
        }
        let mine = patch.midiControl, theirs = first.midiControl
        if mine.isDeclared != theirs.isDeclared || mine.inputs != theirs.inputs || mine.outputs != theirs.outputs {
            throw GraphError("`midi-control:`'s `input` and `output` differ from the first patch's; \(rule)",
                             at: patch.sourcePath.map { SourceLocation(file: $0, line: 1, column: 1) })
        }
        if patch.clock != first.clock {
            throw GraphError("`clock:` differs from the first patch's; every patch of a setlist declares the first's"
                             + " (`\(firstName)`) `clock:`, as it wrote it: its ports are made once, when the run starts",
                             at: patch.clockLocation ?? patch.sourcePath.map { SourceLocation(file: $0, line: 1, column: 1) })
        }
    }

    private static func isEnd(_ kind: NodeKind) -> Bool {
        switch kind {
        case .input, .output, .file, .midiInput, .midiOutput, .midiFile: true
        case .plugin, .mix, .gain: false
        }
    }

    /// The same endpoint, wherever in its file it is written.
    private static func sameEnd(_ a: NodeKind, _ b: NodeKind) -> Bool {
        switch (a, b) {
        case (.file(var first), .file(var second)):
            first.pathLocation = nil
            second.pathLocation = nil
            return first == second
        case (.midiFile(var first), .midiFile(var second)):
            first.pathLocation = nil
            second.pathLocation = nil
            return first == second
        default:
            return a == b
        }
    }
}
