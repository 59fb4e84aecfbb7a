import Foundation
import Yams

/// Reads setlist files (`fxhost-setlist: 1`) with the checks a patch file
/// gets: the size and bytes first (`PatchFileReader`), hostile YAML refused
/// before it is composed, every error at `file:line:column`. The patches it
/// lists are read by `checkPatches`.
package enum SetlistParser {
    /// The one setlist format version this build reads.
    package static let formatVersion = 1
    static let topLevelKeys = ["fxhost-setlist", "spillover", "patches"]
    static let entryKeys = ["name", "patch", "program"]

    /// Whether `text` is a setlist rather than a patch: a mapping, in block
    /// or flow style, with an `fxhost-setlist` key, the rule by which the
    /// patch reader refuses it. Text that does not compose is not one (the
    /// patch reader then says why at its `file:line:column`).
    package static func isSetlist(text: String) -> Bool {
        guard let root = try? YAMLDocument.compose(text: text, path: ""), case .mapping(let mapping) = root else { return false }
        return mapping.keys.contains { $0.string == "fxhost-setlist" }
    }

    /// Reads and parses the setlist file at `path`.
    package static func load(path: String) throws(GraphError) -> Setlist {
        try parse(text: try PatchFileReader.read(path: path), path: path)
    }

    /// Parses setlist text; `path` is used in error locations and to resolve the patches' paths.
    package static func parse(text: String, path: String) throws(GraphError) -> Setlist {
        let root = try YAMLDocument.compose(text: text, path: path)
        let yaml = YAMLReader(path: path)
        guard let root, !yaml.isNull(root) else {
            throw GraphError("setlist file is empty; it needs `fxhost-setlist: \(formatVersion)` and `patches:`",
                             at: SourceLocation(file: path, line: 1, column: 1))
        }
        let entries = try yaml.entries(of: root, what: "the setlist")
        for entry in entries { try yaml.rejectUnknown(entry, allowed: topLevelKeys, in: "the setlist") }
        func value(_ key: String) -> YAMLEntry? { entries.first { $0.key == key } }
        guard let version = value("fxhost-setlist") else {
            throw GraphError("missing `fxhost-setlist: \(formatVersion)` (the setlist format version)", at: yaml.location(root))
        }
        guard let text = yaml.plainText(version.value), PatchValueSyntax.integer(text) == formatVersion else {
            throw GraphError("`fxhost-setlist` must be the setlist format version \(formatVersion), got \(yaml.describe(version.value))",
                             at: yaml.location(version.value))
        }
        let absolute = URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
            .standardizedFileURL.path
        var setlist = Setlist(path: absolute, entries: [])
        if let spillover = value("spillover") {
            setlist.spilloverSeconds = try readSpillover(spillover.value, yaml: yaml)
        }
        guard let patches = value("patches") else {
            throw GraphError("missing `patches`; a setlist lists its patches under `patches:`", at: yaml.location(root))
        }
        let folder = URL(fileURLWithPath: absolute).deletingLastPathComponent().path
        setlist.entries = try readEntries(patches.value, yaml: yaml, folder: folder)
        return setlist
    }

    private static func readSpillover(_ node: Node, yaml: YAMLReader) throws(GraphError) -> Double {
        let range = Setlist.spilloverRange
        let rule = "`spillover` must be a time from 0 to \(Int(range.upperBound)) s such as `4s` or `500ms`"
        guard let text = yaml.text(node), let seconds = PatchValueSyntax.seconds(text) else {
            throw GraphError("\(rule), got \(yaml.describe(node))", at: yaml.location(node))
        }
        guard range.contains(seconds) else { throw GraphError("\(rule), got \(text)", at: yaml.location(node)) }
        return seconds
    }

    private static func readEntries(_ node: Node, yaml: YAMLReader, folder: String) throws(GraphError) -> [Setlist.Entry] {
        let example = "`- { name: verse, patch: verse.yaml, program: 1 }`"
        let items = try yaml.items(of: node, what: "`patches`", example: example)
        guard !items.isEmpty else {
            throw GraphError("`patches` is empty; a setlist needs at least one patch, as in \(example)", at: yaml.location(node))
        }
        guard items.count <= Setlist.entryLimit else {
            throw GraphError("`patches` lists \(items.count) patches; a setlist holds at most \(Setlist.entryLimit)",
                             at: yaml.location(node))
        }
        var result: [Setlist.Entry] = []
        for item in items {
            let entries = try yaml.entries(of: item, what: "a patch of the setlist")
            for entry in entries { try yaml.rejectUnknown(entry, allowed: entryKeys, in: "a patch of the setlist") }
            func value(_ key: String) -> YAMLEntry? { entries.first { $0.key == key } }
            guard let name = value("name") else {
                throw GraphError("a patch of the setlist needs `name`, as in \(example)", at: yaml.location(item))
            }
            guard let nameText = yaml.text(name.value), PatchValueSyntax.isNodeName(nameText) else {
                throw GraphError("`name` must be a name that starts with a letter or `_` and contains only letters, digits,"
                                 + " `_` and `-`, got \(yaml.describe(name.value))", at: yaml.location(name.value))
            }
            if let first = result.first(where: { $0.name == nameText }) {
                throw GraphError("two patches of the setlist are called `\(nameText)` (the first on line \(first.location.line));"
                                 + " each name may be given once", at: yaml.location(name.value))
            }
            guard let patch = value("patch") else {
                throw GraphError("patch `\(nameText)` of the setlist needs `patch`, the patch file", at: yaml.location(item))
            }
            guard let patchText = yaml.text(patch.value), !patchText.trimmingSpaces.isEmpty else {
                throw GraphError("`patch` must be the path of a patch file, got \(yaml.describe(patch.value))",
                                 at: yaml.location(patch.value))
            }
            var entry = Setlist.Entry(name: nameText, path: PatchLoader.resolve(patchText, in: folder),
                                      location: yaml.location(name.value))
            if let program = value("program") {
                let rule = "`program` must be a MIDI program number from 0 to 127"
                guard let text = yaml.plainText(program.value), let number = PatchValueSyntax.integer(text) else {
                    throw GraphError("\(rule), got \(yaml.describe(program.value))", at: yaml.location(program.value))
                }
                guard (0...127).contains(number) else {
                    throw GraphError("\(rule), got \(number)", at: yaml.location(program.value))
                }
                if let first = result.first(where: { $0.program == number }) {
                    throw GraphError("program \(number) already selects patch `\(first.name)`; each program selects one patch",
                                     at: yaml.location(program.value))
                }
                entry.program = number
            }
            result.append(entry)
        }
        return result
    }
}
