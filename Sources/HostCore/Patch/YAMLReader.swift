import Yams

/// One `key: value` pair of a YAML mapping, with the key already checked to be a plain string.
struct YAMLEntry {
    var key: String
    var keyNode: Node
    var value: Node
}

/// Reads values out of a composed YAML tree. Every mismatch becomes a
/// `GraphError` at the offending node's `file:line:column`.
struct YAMLReader {
    let path: String

    func location(_ node: Node) -> SourceLocation {
        location(node.mark)
    }

    func location(_ mark: Mark?) -> SourceLocation {
        SourceLocation(file: path, line: mark?.line ?? 1, column: mark?.column ?? 1)
    }

    /// The location of the character `offset` scalars into a one-line scalar's text
    /// (skipping its opening quote), or the scalar's own location when that cannot be known.
    func location(_ node: Node, offset: Int) -> SourceLocation {
        var result = location(node)
        guard let scalar = node.scalar, !scalar.string.contains("\n") else { return result }
        switch scalar.style {
        case .plain: result.column += offset
        case .singleQuoted, .doubleQuoted: result.column += 1 + offset
        default: break
        }
        return result
    }

    /// A short description of a node for "got …" in messages.
    func describe(_ node: Node) -> String {
        switch node {
        case .scalar(let scalar):
            if isNull(node) { return "nothing" }
            return "\"\(scalar.string)\""
        case .sequence: return "a list"
        case .mapping: return "a mapping"
        case .alias: return "an alias"
        }
    }

    /// `~`, `null` or an empty value, unquoted.
    func isNull(_ node: Node) -> Bool {
        guard let scalar = node.scalar, scalar.style == .plain else { return false }
        return ["", "~", "null", "Null", "NULL"].contains(scalar.string)
    }

    /// The text of a non-null scalar, or nil.
    func text(_ node: Node) -> String? {
        guard let scalar = node.scalar, !isNull(node) else { return nil }
        return scalar.string
    }

    /// A plain (unquoted) scalar's text: numbers and booleans must be written plain.
    func plainText(_ node: Node) -> String? {
        guard let scalar = node.scalar, scalar.style == .plain, !isNull(node) else { return nil }
        return scalar.string
    }

    /// `true` or `false` (YAML 1.2 core spellings).
    func bool(_ node: Node) -> Bool? {
        switch plainText(node) {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// The entries of a mapping, refusing non-string keys and repeated keys.
    /// `what` names the mapping in messages ("the patch", "node `drive`").
    func entries(of node: Node, what: String) throws(GraphError) -> [YAMLEntry] {
        guard let mapping = node.mapping else {
            throw GraphError("\(what) must be a mapping of `key: value` pairs, got \(describe(node))", at: location(node))
        }
        var result: [YAMLEntry] = []
        var seen: [String: Node] = [:]
        for (keyNode, value) in mapping {
            guard let key = text(keyNode) else {
                throw GraphError("keys in \(what) must be names, got \(describe(keyNode))", at: location(keyNode))
            }
            if let first = seen[key] {
                // Yams refuses keys that are equal as YAML values; this catches `true` and 'true'.
                let line = first.mark.map { " (first on line \($0.line))" } ?? ""
                throw GraphError("duplicate key `\(key)` in \(what); each key may be given once\(line)", at: location(keyNode))
            }
            seen[key] = keyNode
            result.append(YAMLEntry(key: key, keyNode: keyNode, value: value))
        }
        return result
    }

    /// The items of a sequence.
    func items(of node: Node, what: String, example: String) throws(GraphError) -> [Node] {
        guard let sequence = node.sequence else {
            throw GraphError("\(what) must be a list such as \(example), got \(describe(node))", at: location(node))
        }
        return Array(sequence)
    }

    /// Refuses a key that is not among `allowed`, suggesting the closest allowed one.
    func rejectUnknown(_ entry: YAMLEntry, allowed: [String], in what: String) throws(GraphError) {
        guard !allowed.contains(entry.key) else { return }
        throw GraphError("unknown key `\(entry.key)` in \(what)", at: location(entry.keyNode),
                         suggestion: Suggestion.didYouMean(entry.key, in: allowed))
    }
}
