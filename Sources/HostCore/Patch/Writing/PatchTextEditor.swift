import Yams

/// Writes a changed `Patch` over the text it was read from, keeping the
/// text's comments and layout wherever the change allows.
///
/// Values that changed in place are edited at the positions the parser's
/// marks give: a parameter's or `bypass`'s scalar replaced, a missing
/// `param: value` (or `params:`, `bypass:`) entry inserted into its mapping
/// in the mapping's own style and indentation, a file path replaced. A
/// section whose structure changed is written anew by `PatchWriter`: `nodes`
/// when nodes were added, removed or changed kind; `connect` (and `chain`,
/// when the chain no longer holds) when the wiring changed; `taps` when the
/// taps did; comments inside a rewritten section are lost, those elsewhere
/// stay. Text that cannot be edited so (a root written in flow style) is
/// written whole.
package enum PatchTextEditor {
    /// `text` (read from `path`) edited to say `patch`. `extraSections`
    /// replace the sections of the same keys, or are added at the end.
    package static func edit(_ text: String, path: String, to patch: Patch,
                             extraSections: [PatchSection] = []) -> String {
        let byteOrderMark = text.unicodeScalars.first == "\u{FEFF}"
        let body = byteOrderMark ? String(text.unicodeScalars.dropFirst()) : text
        guard let original = try? PatchParser.parse(text: body, path: path),
              let root = try? Yams.compose(yaml: body), let mapping = root.mapping,
              !PatchTextBuffer(body).isFlow(mapping.mark)
        else {
            return PatchWriter.text(of: patch, extraSections: extraSections)
        }
        var editing = Editing(text: body, root: mapping, original: original)
        guard let edited = editing.edit(to: patch, extraSections: extraSections) else {
            return PatchWriter.text(of: patch, extraSections: extraSections)
        }
        return (byteOrderMark ? "\u{FEFF}" : "") + edited
    }
}

/// One edit of a patch text: the parsed original beside its YAML tree.
private struct Editing {
    var buffer: PatchTextBuffer
    let root: Node.Mapping
    let original: Patch

    init(text: String, root: Node.Mapping, original: Patch) {
        buffer = PatchTextBuffer(text)
        self.root = root
        self.original = original
    }

    func topLevel(_ key: String) -> (key: Node, value: Node)? {
        root.first { $0.key.string == key }.map { ($0.key, $0.value) }
    }

    mutating func edit(to patch: Patch, extraSections: [PatchSection]) -> String? {
        if !editNodesInPlace(patch.nodes) {
            replaceSection("nodes", with: PatchWriter.nodesSection(patch.nodes))
        }
        editWiring(patch.connections)
        if !Self.same(original.taps, patch.taps) {
            setSection("taps", to: patch.taps.isEmpty ? nil : PatchWriter.tapsSection(patch.taps),
                       after: ["connect", "chain", "nodes"])
        }
        // Sections other parts of fxhost keep (MIDI maps, scenes) go here as they give them.
        for section in extraSections {
            setSection(section.key, to: section.lines, after: [])
        }
        return buffer.applied()
    }

    // MARK: Nodes

    /// Edits each node's values where they are written; false when the
    /// nodes differ in more than values (the section is then written anew).
    private mutating func editNodesInPlace(_ nodes: [NodeDeclaration]) -> Bool {
        guard nodes.map(\.name) == original.nodes.map(\.name),
              let written = topLevel("nodes")?.value.mapping else { return false }
        var edits = buffer
        for (old, new) in zip(original.nodes, nodes) {
            guard let mapping = written.first(where: { $0.key.string == new.name })?.value.mapping,
                  editNode(old.kind, to: new.kind, in: mapping, buffer: &edits) else { return false }
        }
        buffer = edits
        return true
    }

    private func editNode(_ old: NodeKind, to new: NodeKind, in mapping: Node.Mapping,
                          buffer: inout PatchTextBuffer) -> Bool {
        switch (old, new) {
        case (.plugin(let was), .plugin(let now)):
            guard was.plugin == now.plugin, was.preset == now.preset else { return false }
            // Parameters first: an entry added to a block `params` and one
            // added to the node after it land at the same place, in this order.
            guard editParameters(was.parameters, to: now.parameters, in: mapping, buffer: &buffer) else { return false }
            return was.bypass == now.bypass
                || setEntry("bypass", to: now.bypass ? "true" : "false", in: mapping, buffer: &buffer)
        case (.file(let was), .file(let now)):
            guard was.startSeconds == now.startSeconds, was.gainDecibels == now.gainDecibels, was.pan == now.pan else {
                return false
            }
            return was.path == now.path || setEntry("file", to: YAMLText.string(now.path), in: mapping, buffer: &buffer)
        default:
            return old == new
        }
    }

    private func editParameters(_ old: [ParameterSetting], to new: [ParameterSetting], in node: Node.Mapping,
                                buffer: inout PatchTextBuffer) -> Bool {
        let changed = new.filter { setting in old.first { $0.symbol == setting.symbol }?.value != setting.value }
        guard !changed.isEmpty else { return true }
        guard let params = node.first(where: { $0.key.string == "params" })?.value.mapping else {
            return insertEntry("params", value: PatchWriter.parameters(changed), into: node, buffer: &buffer)
        }
        for setting in changed {
            guard setEntry(setting.symbol, to: YAMLText.parameterValue(setting.value), in: params, buffer: &buffer) else {
                return false
            }
        }
        return true
    }

    /// Replaces the scalar value of `key` in `mapping`, or adds the entry.
    private func setEntry(_ key: String, to value: String, in mapping: Node.Mapping,
                          buffer: inout PatchTextBuffer) -> Bool {
        guard let existing = mapping.first(where: { $0.key.string == key }) else {
            return insertEntry(key, value: value, into: mapping, buffer: &buffer)
        }
        guard let scalar = existing.value.scalar, let mark = scalar.mark, let start = buffer.offset(mark),
              let end = buffer.scalarEnd(scalar) else { return false }
        buffer.replace(start, end, with: value)
        return true
    }

    /// Adds `key: value` to a mapping in its own style: before a flow
    /// mapping's `}`, or as a line of its own after a block mapping's last,
    /// at the indentation of its keys.
    private func insertEntry(_ key: String, value: String, into mapping: Node.Mapping,
                             buffer: inout PatchTextBuffer) -> Bool {
        // The composer does not keep a collection's style: the text says it.
        if buffer.isFlow(mapping.mark) {
            guard let mark = mapping.mark, let open = buffer.offset(mark), let close = buffer.flowEnd(from: open) else {
                return false
            }
            let last = buffer.lastNonSpace(before: close)
            let separator = last == open ? " " : buffer.scalars[last] == "," ? " " : ", "
            buffer.insert(separator + "\(key): \(value)" + (last == open ? " " : ""), at: last + 1)
            return true
        } else {
            guard let firstKey = mapping.first?.key.mark, let lastKey = mapping.reversed().first?.key.mark else {
                return false
            }
            let indent = firstKey.column - 1
            let lastLine = buffer.lastLine(ofBlockStartingAt: lastKey.line, indent: indent)
            let line = String(repeating: " ", count: indent) + "\(key): \(value)" + buffer.lineEnd
            let at = buffer.endOffset(ofLine: lastLine)
            // A last line without a line end gets one first.
            let needsBreak = at == buffer.scalars.count && at > 0 && buffer.scalars[at - 1] != "\n"
            buffer.insert((needsBreak ? buffer.lineEnd : "") + line, at: at)
            return true
        }
    }

    // MARK: Wiring

    /// Keeps `chain` while the connections it makes still come first, and
    /// writes the rest as `connect`; otherwise writes every connection as
    /// `connect` and drops `chain`.
    private mutating func editWiring(_ connections: [ConnectionDeclaration]) {
        guard !Self.same(original.connections, connections) else { return }
        let connectItems = topLevel("connect")?.value.sequence?.count ?? 0
        let chained = original.connections.count - connectItems
        let rest: [ConnectionDeclaration]
        if chained > 0, connections.count >= chained,
           Self.same(Array(original.connections.prefix(chained)), Array(connections.prefix(chained))) {
            rest = Array(connections.dropFirst(chained))
        } else {
            if chained > 0 { setSection("chain", to: nil, after: []) }
            rest = connections
        }
        setSection("connect", to: rest.isEmpty ? nil : PatchWriter.connectSection(rest), after: ["chain", "nodes"])
    }

    // MARK: Sections

    /// Replaces a top-level section's lines (nil: removes them), or adds
    /// the section after the first of `after` present (else at the end).
    private mutating func setSection(_ key: String, to lines: [String]?, after: [String]) {
        if topLevel(key) != nil {
            replaceSection(key, with: lines ?? [])
            return
        }
        guard let lines else { return }
        let text = lines.joined(separator: buffer.lineEnd) + buffer.lineEnd
        if let previous = after.first(where: { topLevel($0) != nil }), let range = sectionRange(previous) {
            buffer.insert(text, at: range.end)
        } else {
            let end = buffer.scalars.count
            let needsBreak = end > 0 && buffer.scalars[end - 1] != "\n"
            buffer.insert((needsBreak ? buffer.lineEnd : "") + text, at: end)
        }
    }

    private mutating func replaceSection(_ key: String, with lines: [String]) {
        guard let range = sectionRange(key) else { return }
        buffer.replace(range.start, range.end, with: lines.isEmpty ? "" : lines.joined(separator: buffer.lineEnd) + buffer.lineEnd)
    }

    /// From a top-level key's line to the end of its value's last line.
    private func sectionRange(_ key: String) -> (start: Int, end: Int)? {
        guard let mark = topLevel(key)?.key.mark else { return nil }
        let last = buffer.lastLine(ofBlockStartingAt: mark.line, indent: mark.column - 1)
        return (buffer.startOffset(ofLine: mark.line), buffer.endOffset(ofLine: last))
    }

    // MARK: Comparing

    static func same(_ a: [ConnectionDeclaration], _ b: [ConnectionDeclaration]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy {
            $0.from.description == $1.from.description && $0.to.description == $1.to.description
                && $0.gainDecibels == $1.gainDecibels
        }
    }

    static func same(_ a: [TapDeclaration], _ b: [TapDeclaration]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { $0.at.description == $1.at.description && $0.file == $1.file }
    }
}
