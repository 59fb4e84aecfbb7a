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
    /// The entry playing.
    package private(set) var index: Int

    package init(setlist: Setlist, index: Int = 0) {
        self.setlist = setlist
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
        let changes = try patchFile.switchPatch(session, to: entry.path)
        index = target
        return [.patchSwitched(name: entry.name, index: target)] + changes
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
