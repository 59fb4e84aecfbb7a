import Yams

/// `chain`, `connect` and `taps`: references to declared nodes.
extension PatchDocumentReader {
    /// `chain: [a, b, c]` or `chain: [[a, b], [c, d]]`: consecutive entries are connected.
    func readChain(_ node: Node, nodeNames: DeclaredNodeNames) throws(GraphError) -> [ConnectionDeclaration] {
        let example = "`[in, drive, out]`"
        let items = try yaml.items(of: node, what: "`chain`", example: example)
        // Each chain with the YAML node it was written as (for "too short" errors).
        var chains: [(entries: [Node], node: Node)] = [(items, node)]
        if items.first?.sequence != nil {
            chains = []
            for item in items {
                chains.append((try yaml.items(of: item, what: "each chain in a list of chains", example: example), item))
            }
        }
        var connections: [ConnectionDeclaration] = []
        for (chain, chainNode) in chains {
            guard chain.count >= 2 else {
                throw GraphError("a chain needs at least two nodes to connect, got \(chain.count)", at: yaml.location(chainNode))
            }
            var previous: PortReference?
            for item in chain {
                guard let text = yaml.text(item) else {
                    throw GraphError("chain entries must be node names, got \(yaml.describe(item))", at: yaml.location(item))
                }
                let reference = try portReference(text, node: item, offset: 0, nodeNames: nodeNames, role: "chain")
                if let previous {
                    connections.append(ConnectionDeclaration(from: previous, to: reference, location: reference.location))
                }
                previous = reference
            }
        }
        return connections
    }

    /// `connect:` entries: `"a -> b"` strings or `{ from, to, gain }` mappings.
    func readConnect(_ node: Node, nodeNames: DeclaredNodeNames) throws(GraphError) -> [ConnectionDeclaration] {
        var connections: [ConnectionDeclaration] = []
        for item in try yaml.items(of: node, what: "`connect`", example: "`[drive -> out]`") {
            if item.mapping != nil {
                connections.append(try readConnectionMapping(item, nodeNames: nodeNames))
            } else if let text = yaml.text(item) {
                connections.append(try readConnectionString(text, node: item, nodeNames: nodeNames))
            } else {
                throw GraphError("a connection must be `from -> to` or `{ from: a, to: b, gain: -6dB }`, got \(yaml.describe(item))",
                                 at: yaml.location(item))
            }
        }
        return connections
    }

    private func readConnectionString(_ text: String, node: Node, nodeNames: DeclaredNodeNames) throws(GraphError) -> ConnectionDeclaration {
        let malformed = GraphError("malformed connection `\(text)`; write `from -> to`, e.g. `drive -> out`", at: yaml.location(node))
        guard let arrow = text.range(of: "->"), text[arrow.upperBound...].range(of: "->") == nil else { throw malformed }
        let fromText = text[..<arrow.lowerBound].trimmingSpaces
        let toText = text[arrow.upperBound...].trimmingSpaces
        guard !fromText.isEmpty, !toText.isEmpty else { throw malformed }
        func offset(of part: Substring) -> Int { text.unicodeScalars.distance(from: text.startIndex, to: part.startIndex) }
        let from = try portReference(String(fromText), node: node, offset: offset(of: fromText), nodeNames: nodeNames, role: "connection")
        let to = try portReference(String(toText), node: node, offset: offset(of: toText), nodeNames: nodeNames, role: "connection")
        return ConnectionDeclaration(from: from, to: to, location: yaml.location(node))
    }

    private func readConnectionMapping(_ node: Node, nodeNames: DeclaredNodeNames) throws(GraphError) -> ConnectionDeclaration {
        let what = "a connection"
        let entries = try yaml.entries(of: node, what: what)
        for entry in entries { try yaml.rejectUnknown(entry, allowed: ["from", "to", "gain"], in: what) }
        func end(_ key: String) throws(GraphError) -> PortReference {
            guard let entry = entries.first(where: { $0.key == key }) else {
                throw GraphError("connection needs `from` and `to`; `\(key)` is missing", at: yaml.location(node))
            }
            guard let text = yaml.text(entry.value) else {
                throw GraphError("`\(key)` must be a node or `node:port`, got \(yaml.describe(entry.value))", at: yaml.location(entry.value))
            }
            return try portReference(text, node: entry.value, offset: 0, nodeNames: nodeNames, role: "connection")
        }
        let from = try end("from")
        let to = try end("to")
        var connection = ConnectionDeclaration(from: from, to: to, location: yaml.location(node))
        if let gain = entries.first(where: { $0.key == "gain" }) {
            connection.gainDecibels = try readGain(gain.value, key: "gain")
        }
        return connection
    }

    /// `taps: [{ at: node, file: path }]`
    func readTaps(_ node: Node, nodeNames: DeclaredNodeNames) throws(GraphError) -> [TapDeclaration] {
        var taps: [TapDeclaration] = []
        for item in try yaml.items(of: node, what: "`taps`", example: "`[{ at: drive, file: drive.wav }]`") {
            let what = "a tap"
            let entries = try yaml.entries(of: item, what: what)
            for entry in entries { try yaml.rejectUnknown(entry, allowed: ["at", "file"], in: what) }
            guard let at = entries.first(where: { $0.key == "at" }), let file = entries.first(where: { $0.key == "file" }) else {
                throw GraphError("a tap needs `at` (the node to record) and `file`", at: yaml.location(item))
            }
            guard let atText = yaml.text(at.value) else {
                throw GraphError("`at` must be a node or `node:N`, got \(yaml.describe(at.value))", at: yaml.location(at.value))
            }
            guard let path = yaml.text(file.value), !path.trimmingSpaces.isEmpty else {
                throw GraphError("`file` must be the path to record into, got \(yaml.describe(file.value))", at: yaml.location(file.value))
            }
            let reference = try portReference(atText, node: at.value, offset: 0, nodeNames: nodeNames, role: "tap")
            taps.append(TapDeclaration(at: reference, file: path, location: yaml.location(item)))
        }
        return taps
    }

    /// Parses one end (`node`, `node:N`, `node:symbol`) written `offset` scalars into `node`'s text,
    /// and checks that the node is declared.
    private func portReference(_ text: String, node: Node, offset: Int, nodeNames: DeclaredNodeNames, role: String) throws(GraphError) -> PortReference {
        let location = yaml.location(node, offset: offset)
        switch PatchValueSyntax.portReference(text) {
        case .failure(let error):
            throw GraphError("malformed port `\(text)` in \(role): \(error.reason)", at: location)
        case .success(let (name, port)):
            guard nodeNames.contains(name) else {
                throw GraphError("unknown node `\(name)` in \(role)", at: location,
                                 suggestion: Suggestion.didYouMean(name, in: nodeNames.inOrder))
            }
            return PortReference(node: name, port: port, location: location)
        }
    }
}

/// The declared node names: hashed for lookups (a big patch has many references),
/// in file order for suggestions.
struct DeclaredNodeNames {
    let inOrder: [String]
    private let set: Set<String>

    init(_ names: [String]) {
        inOrder = names
        set = Set(names)
    }

    func contains(_ name: String) -> Bool { set.contains(name) }
}
