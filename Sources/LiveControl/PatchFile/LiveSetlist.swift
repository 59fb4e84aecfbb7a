import HostCore
import JackIO

/// A setlist a live run plays (`fxhost run show.yaml`): the patch playing
/// and the moves to another (`next`, `prev`, `load NAME`, a MIDI program
/// change), each carried out as a switch of the live patch file
/// (`LivePatchFile.switchPatch`, the path a reload takes).
///
/// Used on the thread that owns the session (through `ControlDispatcher`).
package final class LiveSetlist {
    package let setlist: Setlist
    /// The first patch as the run started: every patch switched to must keep
    /// its ends (the JACK ports, file sources and clock made once, at start).
    let first: Patch
    /// The entry playing.
    package private(set) var index: Int
    /// The last spill made (`SetlistSpill.generation`), and the spills still
    /// in the graph with when each is next looked at (host seconds).
    private var generation = 0
    private var spills: [(generation: Int, endsAt: Double)] = []
    /// How often a spill past its deadline whose fades the audio has not
    /// yet played to the end (a stalled server) is looked at again.
    static let recheckSeconds = 0.05
    /// Spills ringing at once, the newest included: a switch past this cuts the oldest's fade short.
    static let maximumSpills = 2

    package init(setlist: Setlist, first: Patch, index: Int = 0) {
        self.setlist = setlist
        self.first = first
        self.index = setlist.entries.indices.contains(index) ? index : 0
    }

    package var position: LiveStatus.SetlistPosition {
        LiveStatus.SetlistPosition(name: setlist.entries[index].name, index: index, patches: setlist.entries.map(\.name),
                                   spilloverSeconds: setlist.spilloverSeconds)
    }

    /// The entry a move asks for: one past the last, or before the first, stays where it is.
    func target(of move: SetlistMove) throws(ControlError.Reason) -> Int {
        switch move {
        case .next:
            guard index + 1 < setlist.entries.count else {
                throw .refused("`\(setlist.entries[index].name)` is the setlist's last patch; there is no next one")
            }
            return index + 1
        case .previous:
            guard index > 0 else {
                throw .refused("`\(setlist.entries[index].name)` is the setlist's first patch; there is no previous one")
            }
            return index - 1
        case .chosen(.named(let name)):
            guard let found = setlist.index(named: name) else {
                let names = setlist.entries.map(\.name)
                throw .refused("the setlist has no patch `\(name)`"
                               + (Suggestion.didYouMean(name, in: names).map { " (\($0))" } ?? "; it has " + names.joined(separator: ", ")))
            }
            return found
        case .chosen(.program(let program)):
            guard let found = setlist.index(program: program) else {
                throw .refused("no patch of the setlist has program \(program)")
            }
            return found
        }
    }

    /// Switches to the patch `move` asks for; the changes to announce
    /// (the switch first). Refused: nothing changed.
    func move(_ move: SetlistMove, session: LiveSession, patchFile: LivePatchFile) throws(ControlError.Reason)
        -> [ControlChange.Kind] {
        let target = try target(of: move)
        let entry = setlist.entries[target]
        let spill = setlist.spilloverSeconds > 0 ? SetlistSpill(generation: generation + 1, seconds: setlist.spilloverSeconds) : nil
        let changes = try patchFile.switchPatch(session, to: entry.path, spill: spill) { patch throws(GraphError) in
            // A patch edited mid-show to other ports is refused: the old one plays on.
            try Setlist.requireSameEnds(patch, as: first, firstName: setlist.entries[0].name)
        }
        index = target
        // What the graph now spills: this switch's, and the ones before; past the bound, the oldest
        // fade out over `SpilloverFadeUnit.cutSeconds` and go (never dropped ringing).
        if let spill {
            generation = spill.generation
            let prefix = SetlistSpill.prefix(spill.generation)
            if session.graph.nodes.contains(where: { $0.name.hasPrefix(prefix) }) {
                spills.append((spill.generation, LiveHost.now() + spill.seconds))
            }
            let ringing = spills.filter { !SetlistSpill.fades($0.generation, in: session.graph).contains(where: \.hasEnded) }
            for old in ringing.dropLast(Self.maximumSpills) {
                SetlistSpill.fades(old.generation, in: session.graph).forEach { $0.cut() }
                if let position = spills.firstIndex(where: { $0.generation == old.generation }) {
                    spills[position].endsAt = LiveHost.now()
                }
            }
        }
        return [.patchSwitched(name: entry.name, index: target)] + changes
    }

    /// When the next spill is due to be taken out (host seconds), if any.
    var nextSpillEnd: Double? { spills.map(\.endsAt).min() }

    /// Takes out of the graph every spill whose spillover is over: its
    /// deadline passed and the audio has played each of its fades to 0
    /// (`isOver`); one graph edit each, after which its units are freed off
    /// the realtime thread with the retired plan. One not over yet, or that
    /// the session refuses now (a bounce under way), is looked at again a little later.
    func endSpills(now: Double, session: LiveSession) {
        for (position, spill) in spills.enumerated() where spill.endsAt <= now {
            guard Self.isOver(deadline: spill.endsAt, now: now, fades: SetlistSpill.fades(spill.generation, in: session.graph)) else {
                spills[position].endsAt = now + Self.recheckSeconds
                continue
            }
            do {
                if let graph = try SetlistSpill.removed(spill.generation, from: session.graph) {
                    try session.replaceGraph(with: graph, newUnits: [])
                }
                spills[position].endsAt = .infinity
            } catch {
                spills[position].endsAt = now + Self.recheckSeconds
            }
        }
        spills.removeAll { $0.endsAt == .infinity }
    }

    /// Whether a spill may go: its deadline (host clock) passed and every
    /// fade of it has played to its end (the audio's frames), so a stalled
    /// server's ringing tail is never cut by the clock alone.
    static func isOver(deadline: Double, now: Double, fades: [SpilloverFadeUnit]) -> Bool {
        deadline <= now && fades.allSatisfy(\.hasEnded)
    }
}

/// Where a setlist move goes.
enum SetlistMove: Equatable {
    case next
    case previous
    case chosen(SetlistChoice)
}

/// A setlist's patch chosen by name (`load NAME`) or by MIDI program.
package enum SetlistChoice: Equatable, Sendable, Codable {
    case named(String)
    /// The patch whose `program:` this MIDI program number (0–127) is.
    case program(Int)
}
