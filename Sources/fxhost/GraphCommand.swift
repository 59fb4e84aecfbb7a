import ArgumentParser
import HostCore
import LiveControl

struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Print a patch as a Graphviz DOT graph.",
        discussion: """
            Examples:
              fxhost graph project.yaml | dot -Tsvg > project.svg
            """)

    @OptionGroup var source: PatchOptions

    func run() throws {
        print(PatchGraphviz.dot(try source.load(plugins: Plugins())))
    }
}
