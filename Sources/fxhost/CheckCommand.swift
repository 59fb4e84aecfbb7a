import ArgumentParser
import HostCore
import LiveControl

struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate a patch and print the graph as fxhost resolved it.",
        discussion: """
            Loads every plugin, applies presets and parameters, opens file sources, resolves channel counts and checks every tap's file (format, folder), exactly as a render would, without rendering. Errors name file:line:column. Exit status 0 means the patch will load.

            Examples:
              fxhost check Presets/vocal-chain.yaml
              fxhost check project.yaml --json
            """)

    @OptionGroup var source: PatchOptions

    @Flag(help: "Print JSON for scripts.")
    var json = false

    func run() throws {
        let jsonOutput = json ? JSONStandardOutput() : nil
        let plugins = Plugins()
        if let path = source.patch, SetlistParser.isSetlist(text: try PatchFileReader.read(path: path)) {
            return try checkSetlist(path: path, plugins: plugins, jsonOutput: jsonOutput)
        }
        let patch = try source.load(plugins: plugins)
        let (graph, plan) = try Self.plan(of: patch, plugins: plugins)
        if let jsonOutput {
            return try jsonOutput.print(CheckReport(patch: patch, plan: plan))
        }
        Self.printReport(patch: patch, graph: graph, plan: plan, title: patch.name ?? source.patch ?? "chain")
        print("OK")
    }

    /// Exactly what a render builds, at the files' rate (48 kHz without files).
    static func plan(of patch: Patch, plugins: Plugins) throws -> (AudioGraph, RenderPlan) {
        let graph = try PatchLoader(units: plugins.provider).graph(for: patch)
        let rate = try PatchLoader.sampleRate(of: graph) ?? 48000
        return try (graph, graph.compile(format: RenderFormat(sampleRate: rate, maxBlockFrames: 512, mode: .offline)))
    }

    /// A setlist: every patch checked as one patch is, each error at its own file:line:column.
    private func checkSetlist(path: String, plugins: Plugins, jsonOutput: JSONStandardOutput?) throws {
        let setlist = try SetlistParser.load(path: path)
        let patches = try setlist.readPatches()
        var reports: [SetlistCheckReport.Entry] = []
        for (entry, patch) in zip(setlist.entries, patches) {
            let (graph, plan) = try Self.plan(of: patch, plugins: plugins)
            if jsonOutput == nil {
                let program = entry.program.map { ", program \($0)" } ?? ""
                Self.printReport(patch: patch, graph: graph, plan: plan, title: "\(entry.name) (\(entry.path)\(program))")
            }
            reports.append(.init(name: entry.name, patch: entry.path, program: entry.program,
                                 report: CheckReport(patch: patch, plan: plan)))
        }
        if let jsonOutput {
            return try jsonOutput.print(SetlistCheckReport(spilloverSeconds: setlist.spilloverSeconds, patches: reports))
        }
        print("setlist: \(setlist.entries.count) patches, spillover \(NumberText.format(setlist.spilloverSeconds)) s")
        print("OK")
    }

    private static func printReport(patch: Patch, graph: AudioGraph, plan: RenderPlan, title: String) {
        print("\(title): \(plan.nodes.count) nodes at \(Int(plan.format.sampleRate)) Hz")
        let hostTime = Self.hostTimeLines(graph)
        for node in plan.nodes {
            print("  \(node.name): \(node.summary)" + Self.channelText(node)
                  + (node.latencyFrames > 0 ? ", latency \(node.latencyFrames) frames" : "")
                  + (node.outputLatencyFrames > 0 ? " (\(node.outputLatencyFrames) at its output)" : ""))
            for (channel, feeds) in node.inputs.enumerated() where !feeds.isEmpty {
                print("    in \(channel + 1) ← " + feeds.joined(separator: " + "))
            }
            for input in node.midiInputs {
                print("    MIDI \(input.port) ← " + input.feeds.joined(separator: " + "))
            }
            if let line = hostTime[node.name] { print("    " + line) }
        }
        for tap in plan.taps { print("  tap \(tap.node) → \(tap.file) (\(tap.channels.count) ch)") }
        for line in Self.midiControlText(patch.midiControl) + Self.clockText(patch.clock) { print("  " + line) }
        print("  " + Self.parallelText(plan.program))
        if plan.latencyFrames > 0 {
            print("  latency \(plan.latencyFrames) frames, compensated (outputs and taps aligned; renders start at the first input sample)")
        }
    }

    /// `midi-control:` and `scenes:` as `run` will use them.
    static func midiControlText(_ control: MIDIControl) -> [String] {
        var lines: [String] = []
        if control.isDeclared {
            lines.append("MIDI input" + (control.inputs.isEmpty ? " (connected to nothing)" : " ← " + control.inputs.joined(separator: ", ")))
        }
        if !control.outputs.isEmpty { lines.append("MIDI feedback → " + control.outputs.joined(separator: ", ")) }
        for mapping in control.mappings { lines.append("MIDI \(mapping)") }
        for scene in control.scenes {
            let settings = scene.nodes.flatMap { node in
                node.parameters.map { "\(node.node):\($0.symbol) = \($0.value)" }
                    + (node.bypass.map { ["\(node.node) \($0 ? "bypassed" : "active")"] } ?? [])
            }
            lines.append("scene \(scene.name): " + (settings.isEmpty ? "nothing" : settings.joined(separator: ", ")))
        }
        return lines
    }

    /// `clock:` as `run` will use it.
    static func clockText(_ clock: MIDIClockPorts) -> [String] {
        func ports(_ names: [String]) -> String { names.isEmpty ? "(connected to nothing)" : names.joined(separator: ", ") }
        return (clock.inputs.map { ["MIDI clock in ← " + ports($0)] } ?? [])
            + (clock.outputs.map { ["MIDI clock out → " + ports($0)] } ?? [])
    }

    /// What `--threads` can do with this plan.
    static func parallelText(_ program: RenderProgram) -> String {
        guard let tasks = program.tasks else { return "no parallel branches: renders on one thread whatever --threads says" }
        let width = tasks.parallelWidth
        return "\(tasks.tasks.count) tasks, up to \(width) at once: --threads \(width) can use them all"
    }

    private static func channelText(_ node: PlanNode) -> String {
        switch (node.inputWidth, node.outputWidth) {
        case (0, 0): return ""
        case (0, let out): return " [\(out) ch]"
        case (let input, let out) where input == out: return " [\(input) ch]"
        case (let input, let out): return " [\(input) → \(out) ch]"
        }
    }
}

/// `check --json` of a setlist: each patch's report, in the setlist's order.
struct SetlistCheckReport: Encodable {
    struct Entry: Encodable {
        var name: String
        var patch: String
        var program: Int?
        var report: CheckReport
    }
    var spilloverSeconds: Double
    var patches: [Entry]
}

/// `check --json`.
struct CheckReport: Encodable {
    struct Node: Encodable {
        var name: String
        var summary: String
        var inputChannels: Int
        var outputChannels: Int
        var instances: Int
        var inputs: [[String]]
        var latencyFrames: Int
        var outputLatencyFrames: Int
        /// MIDI input port → what feeds it (absent: nothing feeds MIDI in).
        var midiInputs: [String: [String]]?
    }
    struct Tap: Encodable {
        var node: String
        var file: String
        var channels: Int
    }
    var name: String?
    var sampleRate: Double
    var latencyFrames: Int
    /// Tasks the plan is cut into, and how many can run at once (`--threads`).
    var tasks: Int
    var parallelWidth: Int
    var nodes: [Node]
    var taps: [Tap]
    /// `midi-control:` and `scenes:`, each line as `check` prints it (absent: none).
    var midiControl: [String]?
    /// `clock:`, each line as `check` prints it (absent: none).
    var clock: [String]?

    init(patch: Patch, plan: RenderPlan) {
        name = patch.name
        sampleRate = plan.format.sampleRate
        latencyFrames = plan.latencyFrames
        tasks = max(plan.program.taskCount, 1)
        parallelWidth = plan.program.tasks?.parallelWidth ?? 1
        nodes = plan.nodes.map {
            Node(name: $0.name, summary: $0.summary, inputChannels: $0.inputWidth, outputChannels: $0.outputWidth,
                 instances: $0.instances, inputs: $0.inputs, latencyFrames: $0.latencyFrames,
                 outputLatencyFrames: $0.outputLatencyFrames,
                 midiInputs: $0.midiInputs.isEmpty ? nil
                    : Dictionary($0.midiInputs.map { ($0.port, $0.feeds) }, uniquingKeysWith: { first, _ in first }))
        }
        taps = plan.taps.map { Tap(node: $0.node, file: $0.file, channels: $0.channels.count) }
        let midi = CheckCommand.midiControlText(patch.midiControl)
        midiControl = midi.isEmpty ? nil : midi
        let clock = CheckCommand.clockText(patch.clock)
        self.clock = clock.isEmpty ? nil : clock
    }
}
