import ArgumentParser
import Foundation
import HostCore
import LiveControl
import LV2Bridge

/// The patch a command works on: a file, or `--chain` on the command line.
struct PatchOptions: ParsableArguments {
    @Argument(help: "The patch file (YAML); `run` and `check` also take a setlist of patches.", completion: .file(extensions: ["yaml", "yml"]))
    var patch: String?

    @Option(name: .long, help: ArgumentHelp(
        "Build the patch on the command line: plugins separated by `!`, each followed by symbol=value pairs and optionally @mix or @in=CHANNELS (how it takes the stream's channels; see docs/patch-format.md).",
        valueName: "\"PLUGIN p=v ! PLUGIN ...\""))
    var chain: String?

    func validate() throws {
        if patch == nil && chain == nil { throw ValidationError("give a patch file or --chain") }
        if patch != nil && chain != nil { throw ValidationError("give a patch file or --chain, not both") }
    }

    /// The patch; a chain's live input is as wide as `inputChannels`. A chain
    /// asks `plugins` for each plugin's audio ports (they decide its wiring);
    /// a patch file is read without them.
    func load(inputChannels: Int = 2, plugins: @autoclosure () -> Plugins) throws -> Patch {
        if let chain { return try ChainSpec.patch(from: chain, inputChannels: inputChannels, units: plugins().provider) }
        return try PatchParser.load(path: patch!)
    }

    /// The patch, and the plugins it names, loaded for rendering it: only
    /// the bundles of those plugins when the plugin index allows it
    /// (`Plugins.init(rendering:)`). So the names come first: a patch file
    /// is read before any plugin, a chain's plugin names are picked from its
    /// text (none, when its syntax is wrong: building the patch says why).
    func loadForRendering(inputChannels: Int) throws -> (patch: Patch, plugins: Plugins) {
        if let chain {
            let plugins = Plugins(rendering: ChainSpec.pluginReferences(in: chain))
            return (try ChainSpec.patch(from: chain, inputChannels: inputChannels, units: plugins.provider), plugins)
        }
        let patch = try PatchParser.load(path: patch!)
        let references = patch.nodes.compactMap { node in
            if case .plugin(let spec) = node.kind { spec.plugin } else { nil }
        }
        return (patch, Plugins(rendering: references))
    }
}
