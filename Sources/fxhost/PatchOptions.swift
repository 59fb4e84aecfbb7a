import ArgumentParser
import Foundation
import HostCore
import LV2Bridge

/// The patch a command works on: a file, or `--chain` on the command line.
struct PatchOptions: ParsableArguments {
    @Argument(help: "The patch file (YAML).", completion: .file(extensions: ["yaml", "yml"]))
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
}
