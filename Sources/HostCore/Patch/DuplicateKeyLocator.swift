import Yams

/// Finds the repeat of a key Yams refused. Yams reports a repeated mapping
/// key at its first occurrence, but the line that is wrong is the repeat.
/// So the occurrence Yams names is renamed in a copy of the text (its first
/// character becomes a private-use one, which no column moves for and no
/// patch contains) until the copy composes; the repeat is then the next key
/// with the same text in the mapping holding the renamed one.
struct DuplicateKeyLocator {
    /// Where the repeat is, and which mapping holds it, in the patch's words
    /// ("`nodes`", "node `drive`", "the patch").
    struct Repeat {
        var mark: Mark
        var mappingDescription: String
    }

    private struct Position: Hashable {
        var line: Int
        var column: Int
        init(_ mark: Mark) { (line, column) = (mark.line, mark.column) }
    }

    /// Renames this many keys at most before giving up (a patch with more
    /// repeated keys than that gets the first occurrence reported).
    private static let renameLimit = 16

    let text: String

    /// The repeat of `key`, whose first occurrence is at `first`, or nil when
    /// it cannot be found.
    func repeatOf(key: String, first: Mark) -> Repeat? {
        var scalars = Array(text.unicodeScalars)
        var renamed: [Position: String] = [:]
        var next = (key: key, mark: first)
        for attempt in 0..<Self.renameLimit {
            guard let offset = Self.offset(of: next.mark, in: scalars),
                  let replaced = Self.firstCharacter(at: offset, in: scalars),
                  let marker = Unicode.Scalar(0xE000 + attempt) else { return nil }
            scalars[replaced] = marker
            renamed[Position(next.mark)] = next.key
            do {
                var copy = String.UnicodeScalarView()
                copy.append(contentsOf: scalars)
                guard let root = try Yams.compose(yaml: String(copy)) else { return nil }
                return Self.find(key, after: Position(first), in: root, path: [], renamed: renamed)
            } catch YamlError.duplicatedKeysInMapping(let duplicates, let context) {
                next = (duplicates.first ?? "", context.mark)
            } catch {
                return nil
            }
        }
        return nil
    }

    /// The index of a line and column (1-based, counted as libyaml counts them).
    private static func offset(of mark: Mark, in scalars: [Unicode.Scalar]) -> Int? {
        var line = 1, column = 1, index = 0
        while index < scalars.count {
            if line == mark.line && column == mark.column { return index }
            let scalar = scalars[index]
            index += scalar == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n" ? 2 : 1
            if ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalar) {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        return nil
    }

    /// The index of the first character of the key starting at `offset`
    /// (inside its quotes), when replacing it leaves the YAML valid.
    private static func firstCharacter(at offset: Int, in scalars: [Unicode.Scalar]) -> Int? {
        let index = scalars[offset] == "\"" || scalars[offset] == "'" ? offset + 1 : offset
        guard index < scalars.count else { return nil }
        let scalar = scalars[index]
        let unsafe: Set<Unicode.Scalar> = ["\\", "\"", "'", "-", "?", ":", ",", "[", "]", "{", "}", "#", "&", "*",
                                           "!", "|", ">", "%", "@", "`", " ", "\t", "\n", "\r"]
        return unsafe.contains(scalar) || scalar.value < 0x20 ? nil : index
    }

    /// In the mapping whose key is at `first`, the next key with the text `key`.
    private static func find(_ key: String, after first: Position, in node: Node, path: [String],
                             renamed: [Position: String]) -> Repeat? {
        func original(_ keyNode: Node) -> String? {
            keyNode.mark.flatMap { renamed[Position($0)] } ?? keyNode.scalar?.string
        }
        if let mapping = node.mapping {
            let keys = mapping.map(\.key)
            if let start = keys.firstIndex(where: { $0.mark.map(Position.init) == first }) {
                guard let repeated = keys[(start + 1)...].first(where: { original($0) == key }),
                      let mark = repeated.mark else { return nil }
                return Repeat(mark: mark, mappingDescription: describe(path))
            }
            for (keyNode, value) in mapping {
                if let found = find(key, after: first, in: value, path: path + [original(keyNode) ?? ""],
                                    renamed: renamed) {
                    return found
                }
            }
        } else if let sequence = node.sequence {
            for item in sequence {
                if let found = find(key, after: first, in: item, path: path + ["-"], renamed: renamed) { return found }
            }
        }
        return nil
    }

    /// The mapping at `path` as the patch reader names it in messages.
    private static func describe(_ path: [String]) -> String {
        switch path.count {
        case 0: return "the patch"
        case 1 where path[0] == "nodes": return "`nodes`"
        case 2 where path[0] == "nodes": return "node `\(path[1])`"
        case 3 where path[0] == "nodes" && path[2] == "params": return "`params` of node `\(path[1])`"
        default: return "a mapping"
        }
    }
}
