import Yams

/// The one way fxhost's YAML files (patches, setlists) become a node tree:
/// the text checked as `PatchFileReader` checks a file's, a byte-order mark
/// dropped (editors do not count it as a column), hostile shapes refused
/// before composing (`YAMLShapeGuard`), and Yams' errors turned into one
/// sentence at `file:line:column`. Nil for an empty document.
enum YAMLDocument {
    static func compose(text: String, path: String) throws(GraphError) -> Node? {
        try PatchFileReader.check(text: text, path: path)
        let text = text.unicodeScalars.first == "\u{FEFF}" ? String(text.unicodeScalars.dropFirst()) : text
        try YAMLShapeGuard(path: path).check(text)
        do {
            return try Yams.compose(yaml: text)
        } catch {
            throw YAMLErrorTranslation.graphError(from: error, path: path)
        }
    }
}
