/// The command-line form of a patch: `--chain "mda/Overdrive drive=0.7 ! eg-amp gain=-6"`.
///
/// Plugins are separated by `!`; each is `REFERENCE [symbol=value]...` where a
/// value is a number, `true`/`false`, or a label (double-quote it to include
/// spaces). The result is an input node `in`, the plugins in order, named
/// after their short names (`overdrive`, `overdrive2`, …), and an output node
/// `out`, chained; `out` is as wide as what the last plugin gives unless
/// `outputChannels` says otherwise. Errors point at a column of the chain
/// text, as `--chain:1:COLUMN`.
public enum ChainSpec {
    /// The file name used in error locations.
    public static let sourceName = "--chain"

    public static func patch(from text: String, inputChannels: Int = 2, outputChannels: Int? = nil) throws(PatchError) -> Patch {
        for (count, what) in [(inputChannels, "input"), (outputChannels ?? 1, "output")] where !(1...PatchDocumentReader.channelLimit).contains(count) {
            throw PatchError("the chain's \(what) needs 1 to \(PatchDocumentReader.channelLimit) channels, got \(count)")
        }
        let segments = try split(text)
        var nodes = [NodeDeclaration(name: "in", kind: .input(.channels(inputChannels)), location: location(1))]
        var used: Set<String> = ["in", "out"]
        for segment in segments {
            let spec = try plugin(from: segment)
            let name = uniqueName(for: spec.plugin, used: &used)
            nodes.append(NodeDeclaration(name: name, kind: .plugin(spec), location: spec.pluginLocation))
        }
        nodes.append(NodeDeclaration(name: "out", kind: .output(.channels(outputChannels ?? EndpointPorts.asWideAsInput)),
                                     location: location(text.unicodeScalars.count + 1)))
        var connections: [ConnectionDeclaration] = []
        for (from, to) in zip(nodes, nodes.dropFirst()) {
            connections.append(ConnectionDeclaration(from: PortReference(node: from.name, location: from.location),
                                                     to: PortReference(node: to.name, location: to.location),
                                                     location: to.location))
        }
        return Patch(version: PatchParser.formatVersion, name: nil, nodes: nodes, connections: connections)
    }

    /// A word of the chain text and the 1-based column where it starts.
    struct Token {
        var text: String
        var column: Int
    }

    /// Splits into `!`-separated segments of whitespace-separated tokens; double quotes group spaces.
    static func split(_ text: String) throws(PatchError) -> [[Token]] {
        var segments: [[Token]] = [[]]
        var current: Token?
        var quoteColumn: Int?
        var column = 0
        for scalar in text.unicodeScalars {
            column += 1
            if quoteColumn != nil {
                if scalar == "\"" { quoteColumn = nil } else { current!.text.unicodeScalars.append(scalar) }
                continue
            }
            switch scalar {
            case " ", "\t", "\n":
                if let token = current { segments[segments.count - 1].append(token) }
                current = nil
            case "!":
                if let token = current { segments[segments.count - 1].append(token) }
                current = nil
                guard !segments[segments.count - 1].isEmpty else {
                    throw PatchError("`!` with no plugin before it; write `PLUGIN ! PLUGIN`", at: location(column))
                }
                segments.append([])
            case "\"":
                quoteColumn = column
                if current == nil { current = Token(text: "", column: column) }
            default:
                if current == nil { current = Token(text: "", column: column) }
                current!.text.unicodeScalars.append(scalar)
            }
        }
        if let quoteColumn { throw PatchError("unclosed `\"` in the chain", at: location(quoteColumn)) }
        if let token = current { segments[segments.count - 1].append(token) }
        guard !segments[segments.count - 1].isEmpty else {
            throw PatchError(segments.count == 1 ? "the chain names no plugin; write e.g. `mda/Overdrive drive=0.7 ! eg-amp`"
                                                 : "`!` with no plugin after it; write `PLUGIN ! PLUGIN`",
                             at: location(column + 1))
        }
        return segments
    }

    private static func plugin(from tokens: [Token]) throws(PatchError) -> PluginNodeSpec {
        let reference = tokens[0]
        if reference.text.contains("=") {
            throw PatchError("`\(reference.text)` looks like a parameter, but a plugin must come first", at: location(reference.column))
        }
        var spec = PluginNodeSpec(plugin: reference.text, pluginLocation: location(reference.column))
        for token in tokens.dropFirst() {
            let parts = token.text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else {
                throw PatchError("expected `symbol=value` after plugin `\(reference.text)`, got `\(token.text)`", at: location(token.column))
            }
            let symbol = String(parts[0]), valueText = String(parts[1])
            guard PatchValueSyntax.isSymbol(symbol) else {
                throw PatchError("`\(symbol)` is not a port symbol; symbols contain only letters, digits and `_`", at: location(token.column))
            }
            guard !spec.parameters.contains(where: { $0.symbol == symbol }) else {
                throw PatchError("parameter `\(symbol)` is given twice for plugin `\(reference.text)`", at: location(token.column))
            }
            guard !valueText.isEmpty else {
                throw PatchError("parameter `\(symbol)` has no value after `=`", at: location(token.column + symbol.unicodeScalars.count + 1))
            }
            spec.parameters.append(ParameterSetting(symbol: symbol, value: PatchValueSyntax.parameterValue(valueText),
                                                    location: location(token.column)))
        }
        return spec
    }

    /// The plugin's short name as a node name: last path segment, lowercased,
    /// `#` and other non-name characters made `-`/`_`, unique among `used`.
    static func uniqueName(for reference: String, used: inout Set<String>) -> String {
        let last = reference.split(separator: "/").last.map(String.init) ?? reference
        var base = ""
        for scalar in last.lowercased().unicodeScalars {
            if scalar.isASCIILetter || scalar.isASCIIDigit || scalar == "_" || scalar == "-" {
                base.unicodeScalars.append(scalar)
            } else {
                base += scalar == "#" ? "-" : "_"
            }
        }
        if !PatchValueSyntax.isNodeName(base) { base = "_" + base }
        var name = base
        var counter = 2
        while used.contains(name) {
            name = "\(base)\(counter)"
            counter += 1
        }
        used.insert(name)
        return name
    }

    private static func location(_ column: Int) -> SourceLocation {
        SourceLocation(file: sourceName, line: 1, column: column)
    }
}
