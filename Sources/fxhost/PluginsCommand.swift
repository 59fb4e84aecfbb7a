import ArgumentParser
import HostCore
import LiveControl
import LV2Bridge

struct PluginsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plugins",
        abstract: "List installed LV2 plugins.",
        discussion: """
            Plugins are found through lilv, which honours LV2_PATH. TEXT filters by URI or name, ignoring case. Descriptions are cached in $XDG_CACHE_HOME/fxhost (else ~/.cache/fxhost) and read again from a bundle whenever one of its files changes; --no-cache reads every plugin afresh. A plugin can be named in patches by URI or by a unique short form (`mda/Overdrive`, `Overdrive`).

            Examples:
              fxhost plugins
              fxhost plugins reverb
              fxhost plugins --json | jq '.[].uri'
            """)

    @Argument(help: "Only plugins whose URI or name contains this text.")
    var text: String?

    @Flag(help: "Print JSON for scripts.")
    var json = false

    @Flag(help: "Read every plugin's description from its bundle, neither reading nor writing the plugin cache.")
    var noCache = false

    func run() throws {
        let jsonOutput = json ? JSONStandardOutput() : nil
        let catalog = Plugins(useCache: !noCache).catalog
        defer { catalog.saveCache() }
        if let jsonOutput { return try jsonOutput.print(text.map { catalog.search($0) } ?? catalog.plugins) }
        // A listing needs only summaries: with a warm cache, no port is decoded.
        let plugins = catalog.summaries(matching: text)
        if plugins.isEmpty {
            Terminal.status(text.map { "no installed plugin matches `\($0)`" } ?? "no LV2 plugins are installed (is LV2_PATH set?)")
            return
        }
        let width = plugins.map(\.uri.count).max() ?? 0
        for plugin in plugins {
            let audio = "\(plugin.mainAudioInputs) in, \(plugin.mainAudioOutputs) out"
            print(plugin.uri.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(plugin.name) (\(audio))")
        }
    }
}
