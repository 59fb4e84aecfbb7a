/// A setlist (`fxhost-setlist: 1`): the patches a live run switches between,
/// in order, each with a name and optionally the MIDI program that selects
/// it, and how long a patch switched away from keeps ringing (`spillover`).
package struct Setlist: Equatable, Sendable {
    /// One patch of the list.
    package struct Entry: Equatable, Sendable {
        /// What `load NAME` and the front ends call it (a node name's rule).
        package var name: String
        /// The patch file, absolute (resolved from the setlist's folder).
        package var path: String
        /// The MIDI program change (0–127, as `midi-control:` counts them) that switches to it.
        package var program: Int?
        package var location: SourceLocation

        package init(name: String, path: String, program: Int? = nil, location: SourceLocation) {
            self.name = name
            self.path = path
            self.program = program
            self.location = location
        }
    }

    /// The setlist file, absolute.
    package var path: String
    /// Seconds the old patch's outputs keep ringing after a switch.
    package var spilloverSeconds: Double
    package var entries: [Entry]

    /// The longest spillover a setlist may ask for: tails longer than this are a mistake.
    package static let spilloverRange = 0.0...30.0
    /// More patches than any show has: refuse rather than hold a typo's worth.
    package static let entryLimit = 256
    /// The spillover when a setlist gives none.
    package static let defaultSpilloverSeconds = 4.0

    package init(path: String, spilloverSeconds: Double = Setlist.defaultSpilloverSeconds, entries: [Entry]) {
        self.path = path
        self.spilloverSeconds = spilloverSeconds
        self.entries = entries
    }

    /// The index of the entry called `name`, if any.
    package func index(named name: String) -> Int? { entries.firstIndex { $0.name == name } }

    /// The index of the entry MIDI program `program` selects, if any.
    package func index(program: Int) -> Int? { entries.firstIndex { $0.program == program } }
}
