/// The numbered names a live take moves to when its file exists already:
/// `take.wav`, `take-2.wav`, `take-3.wav`, ... The number goes before the
/// extension, so the format (which follows the extension) stays the same.
package enum TakeName {
    /// `path` for `number` 1, otherwise `STEM-NUMBER.EXT`.
    package static func numbered(_ path: String, _ number: Int) -> String {
        guard number > 1 else { return path }
        let slash = path.lastIndex(of: "/")
        let name = slash.map { path[path.index(after: $0)...] } ?? path[...]
        // A leading dot (`.wav`) is a name, not an extension.
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return "\(path[..<dot])-\(number)\(path[dot...])"
        }
        return "\(path)-\(number)"
    }
}
