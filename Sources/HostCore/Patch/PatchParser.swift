import Yams

/// Reads patch files (YAML) into a validated `Patch`.
///
/// Checks everything that needs no plugin knowledge; every error names
/// `file:line:column`. Hostile input (huge files, binary junk, alias bombs,
/// deep nesting) is refused before the YAML composer runs.
public enum PatchParser {
    /// The one patch format version this build reads.
    package static let formatVersion = 1

    /// Reads and parses the patch file at `path`.
    public static func load(path: String) throws(GraphError) -> Patch {
        let text = try PatchFileReader.read(path: path)
        return try parse(text: text, path: path)
    }

    /// Parses patch text; `path` is used in error locations and as `sourcePath`.
    public static func parse(text: String, path: String) throws(GraphError) -> Patch {
        let root = try YAMLDocument.compose(text: text, path: path)
        let yaml = YAMLReader(path: path)
        guard let root, !yaml.isNull(root) else {
            throw GraphError("patch file is empty; it needs at least `fxhost: \(formatVersion)` and some nodes",
                             at: SourceLocation(file: path, line: 1, column: 1))
        }
        var patch = try PatchDocumentReader(yaml: yaml).read(root)
        patch.sourcePath = path
        // The graph's own wiring rules, checked before any unit exists.
        try AudioGraph.WiringRules.check(nodes: patch.nodes.map { ($0.name, AudioGraph.WiringRole($0.kind)) },
                                         connections: patch.connections)
        try MIDIWiring.checkDeclared(nodes: patch.nodes, connections: patch.connections)
        return patch
    }
}

/// Turns Yams' errors into one-sentence `GraphError`s with a location.
enum YAMLErrorTranslation {
    static func graphError(from error: any Error, path: String) -> GraphError {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: path, line: mark.line, column: mark.column) }
        guard let error = error as? YamlError else {
            return GraphError("invalid YAML: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
        switch error {
        case .scanner(let context, let problem, let mark, let yaml),
             .parser(let context, let problem, let mark, let yaml),
             .composer(let context, let problem, let mark, let yaml):
            if problem == "but found another document" {
                return GraphError("a patch file holds one YAML document, but a second one starts here", at: at(mark))
            }
            if Self.character(at: mark, in: yaml) == "\t" {
                return GraphError("invalid YAML: a tab cannot indent or start a value; use spaces", at: at(mark))
            }
            var message = "invalid YAML: \(problem)"
            if let context {
                message += " (\(context.text) that starts at line \(context.mark.line), column \(context.mark.column))"
            }
            return GraphError(message, at: at(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            // Yams reports the first (in sort order) repeated key at its first
            // occurrence; the line that is wrong is the repeat.
            let key = duplicates.first ?? ""
            guard let repeated = DuplicateKeyLocator(text: context.text).repeatOf(key: key, first: context.mark) else {
                return GraphError("duplicate key `\(key)` in a mapping; each key may be given once", at: at(context.mark))
            }
            return GraphError("duplicate key `\(key)` in \(repeated.mappingDescription); each key may be given once"
                              + " (first on line \(context.mark.line))", at: at(repeated.mark))
        case .reader(let problem, let offset, _, let yaml):
            var location = SourceLocation(file: path, line: 1, column: 1)
            if let offset {
                for character in yaml.prefix(offset) {
                    if character == "\n" { location.line += 1; location.column = 1 } else { location.column += 1 }
                }
            }
            return GraphError("invalid YAML: \(problem)", at: location)
        default:
            return GraphError("invalid YAML: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }

    /// The Unicode scalar at a 1-based line and column, if any.
    private static func character(at mark: Mark, in text: String) -> Unicode.Scalar? {
        let lines = YAMLShapeGuard.lines(of: text)
        guard (1...lines.count).contains(mark.line) else { return nil }
        let line = lines[mark.line - 1]
        return (1...max(1, line.count)).contains(mark.column) && !line.isEmpty ? line[mark.column - 1] : nil
    }
}
