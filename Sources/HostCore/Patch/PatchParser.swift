import Yams

/// Reads patch files (YAML) into a validated `Patch`.
///
/// Checks everything that needs no plugin knowledge; every error names
/// `file:line:column`. Hostile input (huge files, binary junk, alias bombs,
/// deep nesting) is refused before the YAML composer runs.
public enum PatchParser {
    /// The one patch format version this build reads.
    public static let formatVersion = 1

    /// Reads and parses the patch file at `path`.
    public static func load(path: String) throws(PatchError) -> Patch {
        let text = try PatchFileReader.read(path: path)
        return try parse(text: text, path: path)
    }

    /// Parses patch text; `path` is used in error locations and as `sourcePath`.
    public static func parse(text: String, path: String) throws(PatchError) -> Patch {
        try PatchFileReader.check(text: text, path: path)
        try YAMLShapeGuard(path: path).check(text)
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw YAMLErrorTranslation.patchError(from: error, path: path)
        }
        let yaml = YAMLReader(path: path)
        guard let root, !yaml.isNull(root) else {
            throw PatchError("patch file is empty; it needs at least `fxhost: \(formatVersion)` and some nodes",
                             at: SourceLocation(file: path, line: 1, column: 1))
        }
        var patch = try PatchDocumentReader(yaml: yaml).read(root)
        patch.sourcePath = path
        try PatchGraphCheck(patch: patch).run()
        return patch
    }
}

/// Turns Yams' errors into one-sentence `PatchError`s with a location.
enum YAMLErrorTranslation {
    static func patchError(from error: any Error, path: String) -> PatchError {
        func at(_ mark: Mark) -> SourceLocation { SourceLocation(file: path, line: mark.line, column: mark.column) }
        guard let error = error as? YamlError else {
            return PatchError("invalid YAML: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
        switch error {
        case .scanner(let context, let problem, let mark, _),
             .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            var message = "invalid YAML: \(problem)"
            if let context {
                message += " (\(context.text) that starts at line \(context.mark.line), column \(context.mark.column))"
            }
            return PatchError(message, at: at(mark))
        case .duplicatedKeysInMapping(let duplicates, let context):
            let names = duplicates.map { "`\($0)`" }.joined(separator: ", ")
            return PatchError("duplicate key \(names) in a mapping; each key may be given once", at: at(context.mark))
        case .reader(let problem, let offset, _, let yaml):
            var location = SourceLocation(file: path, line: 1, column: 1)
            if let offset {
                for character in yaml.prefix(offset) {
                    if character == "\n" { location.line += 1; location.column = 1 } else { location.column += 1 }
                }
            }
            return PatchError("invalid YAML: \(problem)", at: location)
        default:
            return PatchError("invalid YAML: \(error)", at: SourceLocation(file: path, line: 1, column: 1))
        }
    }
}
