/// The words of a `--chain`: `!`-separated stages of a plugin reference,
/// `symbol=value` parameters and at most one channel option (`@mix`,
/// `@in=CHANNELS`). Syntax only; `ChainSpec` turns the stages into a patch.
enum ChainSyntax {
    /// The stages of `text`, checked for syntax only.
    static func stages(from text: String) throws(GraphError) -> [ChainStage] {
        var stages: [ChainStage] = []
        for segment in try split(text) { stages.append(try stage(from: segment)) }
        return stages
    }

    /// A word of the chain text and the 1-based column where it starts.
    struct Token {
        var text: String
        var column: Int
    }

    /// Splits into `!`-separated segments of whitespace-separated tokens; double quotes group spaces.
    static func split(_ text: String) throws(GraphError) -> [[Token]] {
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
                    throw GraphError("`!` with no plugin before it; write `PLUGIN ! PLUGIN`", at: location(column))
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
        if let quoteColumn { throw GraphError("unclosed `\"` in the chain", at: location(quoteColumn)) }
        if let token = current { segments[segments.count - 1].append(token) }
        guard !segments[segments.count - 1].isEmpty else {
            throw GraphError(segments.count == 1 ? "the chain names no plugin; write e.g. `mda/Overdrive drive=0.7 ! eg-amp`"
                                                 : "`!` with no plugin after it; write `PLUGIN ! PLUGIN`",
                             at: location(column + 1))
        }
        return segments
    }

    private static func stage(from tokens: [Token]) throws(GraphError) -> ChainStage {
        let reference = tokens[0]
        if reference.text.contains("=") || reference.text.hasPrefix("@") {
            let what = reference.text.hasPrefix("@") ? "a stage option" : "a parameter"
            throw GraphError("`\(reference.text)` looks like \(what), but a plugin must come first", at: location(reference.column))
        }
        var stage = ChainStage(plugin: PluginNodeSpec(plugin: reference.text, pluginLocation: location(reference.column)))
        for token in tokens.dropFirst() {
            if token.text.hasPrefix("@") {
                try addOption(token, to: &stage)
            } else {
                stage.plugin.parameters.append(try parameter(token, of: reference.text, given: stage.plugin.parameters))
            }
        }
        return stage
    }

    private static func parameter(_ token: Token, of plugin: String,
                                  given: [ParameterSetting]) throws(GraphError) -> ParameterSetting {
        let parts = token.text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2 else {
            throw GraphError("expected `symbol=value` after plugin `\(plugin)`, got `\(token.text)`", at: location(token.column))
        }
        let symbol = String(parts[0]), valueText = String(parts[1])
        guard PatchValueSyntax.isParameterName(symbol) else {
            throw GraphError("`\(symbol)` is not a port symbol; symbols contain only letters, digits and `_`", at: location(token.column))
        }
        guard !given.contains(where: { $0.symbol == symbol }) else {
            throw GraphError("parameter `\(symbol)` is given twice for plugin `\(plugin)`", at: location(token.column))
        }
        guard !valueText.isEmpty else {
            throw GraphError("parameter `\(symbol)` has no value after `=`", at: location(token.column + symbol.unicodeScalars.count + 1))
        }
        return ParameterSetting(symbol: symbol, value: PatchValueSyntax.parameterValue(valueText), location: location(token.column))
    }

    /// The stage options: `@mix`, `@in=CHANNELS`; one per stage.
    static let optionNames = ["mix", "in"]

    private static func addOption(_ token: Token, to stage: inout ChainStage) throws(GraphError) {
        let body = token.text.dropFirst()
        let name = String(body.prefix { $0 != "=" })
        let value = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
        let at = location(token.column)
        guard optionNames.contains(name) else {
            throw GraphError("unknown stage option `@\(name)`; the options are `@mix` and `@in=CHANNELS`", at: at,
                             suggestion: Suggestion.closest(to: name, in: optionNames).map { "did you mean `@\($0)`?" })
        }
        if stage.channels != .automatic {
            throw GraphError("`\(token.text)` after `\(stage.channels.text)`: a stage takes one channel option", at: at)
        }
        if name == "mix" {
            guard value == nil else { throw GraphError("`@mix` takes no value; write `@mix`", at: at) }
            stage.channels = .mix
        } else {
            stage.channels = .map(try channelMap(value, at: at))
        }
        stage.channelsLocation = at
    }

    /// `1+2,3`: per input, channel numbers from 1, joined by `+` to take their mean.
    private static func channelMap(_ value: String?, at: SourceLocation) throws(GraphError) -> [[Int]] {
        let example = "write e.g. `@in=1` for the first channel, `@in=2,1` for two inputs, `@in=1+2` for the mean of two"
        guard let value, !value.isEmpty else { throw GraphError("`@in` needs channels", at: at, suggestion: example) }
        var entries: [[Int]] = []
        for entry in value.split(separator: ",", omittingEmptySubsequences: false) {
            var channels: [Int] = []
            for part in entry.split(separator: "+", omittingEmptySubsequences: false) {
                guard let channel = Int(part), channel >= 1, channel <= PatchDocumentReader.channelLimit else {
                    throw GraphError("`@in=\(value)`: `\(part)` is not a channel number (1, 2, …)", at: at, suggestion: example)
                }
                channels.append(channel)
            }
            entries.append(channels)
        }
        return entries
    }

    static func location(_ column: Int) -> SourceLocation {
        SourceLocation(file: ChainSpec.sourceName, line: 1, column: column)
    }
}
