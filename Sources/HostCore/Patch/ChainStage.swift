/// One `!`-separated stage of a `--chain`: a plugin, its parameters, and how
/// it takes the stream's channels.
struct ChainStage: Equatable {
    var plugin: PluginNodeSpec
    var channels: ChainChannelChoice = .automatic
    /// Where the channel option (`@mix`, `@in=…`) was written, for errors about it.
    var channelsLocation: SourceLocation?
}

/// How a stage takes the stream, as typed after the plugin: nothing, `@mix`
/// or `@in=CHANNELS`.
enum ChainChannelChoice: Equatable {
    /// The chain's channel rule (`ChainChannelRule`).
    case automatic
    /// `@mix`: every input of one instance takes the mean of all the stream's channels.
    case mix
    /// `@in=1+2,3`: per stage input, in order, the stream channels (from 1)
    /// whose mean feeds it.
    case map([[Int]])

    /// The option as the user typed it, for messages.
    var text: String {
        switch self {
        case .automatic: return ""
        case .mix: return "@mix"
        case .map(let entries): return "@in=" + entries.map { $0.map(String.init).joined(separator: "+") }.joined(separator: ",")
        }
    }
}
