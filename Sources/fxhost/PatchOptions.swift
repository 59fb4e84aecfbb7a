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

/// The installed plugins, loaded once per command.
struct Plugins {
    let catalog: PluginCatalog
    let provider: LV2UnitProvider

    init() {
        catalog = PluginCatalog(world: LV2World())
        provider = LV2UnitProvider(catalog: catalog)
    }
}

/// `-i`/`-o` values: `FILE` for the patch's inputs or outputs in order, or
/// `NODE=FILE` for a named one.
struct FileAssignment {
    var node: String?
    var path: String

    init(_ argument: String) {
        if let equals = argument.firstIndex(of: "="), PatchValueSyntax.isNodeName(argument[..<equals]) {
            node = String(argument[..<equals])
            path = String(argument[argument.index(after: equals)...])
        } else {
            path = argument
        }
    }

    /// Pairs files with nodes: named ones by name, the rest in order.
    static func assign(_ assignments: [FileAssignment], to nodes: [String], kind: String,
                       option: String) throws -> [String: String] {
        var result: [String: String] = [:]
        var unnamed = nodes
        for assignment in assignments {
            guard let node = assignment.node else { continue }
            guard nodes.contains(node) else {
                let known = nodes.map { "`\($0)`" }.joined(separator: ", ")
                throw CommandLineError("`\(option) \(node)=…` names no \(kind) of this patch; its \(kind)s are \(known.isEmpty ? "none" : known)")
            }
            result[node] = assignment.path
            unnamed.removeAll { $0 == node }
        }
        for assignment in assignments where assignment.node == nil {
            guard !unnamed.isEmpty else {
                throw CommandLineError("there are more `\(option)` files than \(kind)s in this patch (\(nodes.count))")
            }
            result[unnamed.removeFirst()] = assignment.path
        }
        return result
    }
}

/// A command-line mistake that ArgumentParser cannot see.
struct CommandLineError: UserFacingError {
    var description: String
    init(_ description: String) { self.description = description }
}
