/// A top-level section of a patch file as text, key line included
/// (`taps:` and its entries). The writer takes sections it does not know
/// itself (`midi-control:`, `scenes:`, written by whoever keeps them) in
/// this form and puts them into the file as they are.
package struct PatchSection: Sendable, Equatable {
    /// The top-level key, such as `scenes`.
    package var key: String
    /// Its lines, without line ends; the first starts with `key:`.
    package var lines: [String]

    package init(key: String, lines: [String]) {
        self.key = key
        self.lines = lines
    }
}
