import ArgumentParser
import CCoreShim
import Foundation
import HostCore
import JackIO
import LiveControl

struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Bounce a patch to files offline, as fast as the plugins allow (no audio server needed, or through JACK in freewheel).",
        discussion: """
            File sources play from their start offsets; `-i` feeds files to the patch's live inputs and `-o` takes its outputs, so one patch serves live and offline. The render lasts as long as the longest source (plus its offset) and then a tail, which ends by itself once every output stays below -90 dBFS for half a second, or at --tail.

            The format follows each output's extension: .wav (32-bit float), .rf64, .flac (24-bit), .ogg (Vorbis), .opus (8/12/16/24/48 kHz only), .mp3; --format overrides it. Files are written under a temporary name and renamed when the render succeeds, so a failed render never leaves a file that looks complete. Taps declared in the patch are written too.

            Plugin latency is compensated: parallel branches are aligned before they are summed, and the first input sample is the first output sample (the render runs on for the latency).

            Threads: independent branches of the graph (parallel chains, stems, sends) render at once on --threads N threads (default: the number of cores), joined where they meet; the output is the same bits for any N. A graph with no branch renders on one thread. `fxhost check PATCH` says how many branches can run at once.

            --engine jack bounces through a running JACK server (never started by fxhost) in freewheel mode: the server runs the graph as fast as the CPU allows, in blocks of the server's buffer size, and gives the same samples as --engine embedded with --block set to that size. The server is switched back to realtime when the bounce ends, fails or is interrupted (Ctrl-C).

            Batches: when an -o value holds {name} (the input's file name without its extension), {dir} (its folder) or {n} (its number in the batch, from 1, in path order), the render is a batch: every file the -i values name (quote a pattern such as 'takes/*.wav' so fxhost expands it) is rendered on its own, exactly as `fxhost render PATCH -i FILE -o OUTPUT` would render it, into the patch's first live input (or NODE with -i 'NODE=PATTERN'). --jobs N renders N files at once (default: the number of cores, shared with --threads), in N worker processes started once for the batch, with the embedded engine; a plugin that crashes fails the file it crashed on alone (listed as crashed, its output removed) and a new worker renders the rest; a patch with taps cannot be batched (every file would write them). Without a placeholder, -i and -o mean what they always do, and a template with one input is a batch of one. A pattern that matches nothing, two files sent to one output, an output over an input or into a missing folder are refused before anything renders; a file that fails is listed in the summary while the others render, and the exit status is then 1.

            Examples:
              fxhost render Presets/guitar-crunch.yaml -i di-guitar.wav -o crunch.wav
              fxhost render project.yaml -o mix.flac --tail 5s
              fxhost render mastering.yaml -i mix.wav -o master.wav --json
              fxhost render --chain "mda/Overdrive drive=0.7 ! eg-amp" -i in.wav -o out.wav
              fxhost render project.yaml -o mix.wav --engine jack --server studio
              fxhost render Presets/guitar-crunch.yaml -i 'takes/*.wav' -o 'out/{name}.flac'        # each take on its own
              fxhost render mastering.yaml -i 'album/*.wav' -o '{dir}/{n}-{name}-master.wav' --jobs 2
              fxhost render stems.yaml -o mix.wav --threads 2                                     # branches on two cores
            """)

    enum Engine: String, ExpressibleByArgument, CaseIterable {
        case embedded, jack
    }

    @OptionGroup var source: PatchOptions

    @Option(name: [.short, .customLong("output")], help: ArgumentHelp(
        "Output file: FILE for the patch's outputs in order, or NODE=FILE; with {name}, {dir} or {n} in it, a batch (see Batches above).", valueName: "[NODE=]FILE"))
    var outputs: [String] = []

    @Option(name: [.short, .customLong("input")], help: ArgumentHelp(
        "File for a live input: FILE for the inputs in order, or NODE=FILE; in a batch, files or quoted patterns ('takes/*.wav'), each rendered on its own.", valueName: "[NODE=]FILE"))
    var inputs: [String] = []

    @Option(help: ArgumentHelp("Longest tail after the sources end (e.g. 5s, 500ms, 0 to stop with the sources).",
                               valueName: "DURATION"))
    var tail: String = "10s"

    @Option(help: "Frames per block (1 to 8192; default 512). With --engine jack: the server's buffer size.")
    var block: Int?

    @Option(help: ArgumentHelp("embedded (no server) or jack (a running server in freewheel mode).", valueName: "ENGINE"))
    var engine: Engine = .embedded

    @Option(help: ArgumentHelp("With --engine jack: the JACK server's name (default: the default server).",
                               valueName: "NAME"))
    var server: String?

    @Option(help: ArgumentHelp("Output format, instead of the extension's: "
                               + AudioFileFormat.acceptedNames.joined(separator: ", ") + ".", valueName: "FORMAT"))
    var format: String?

    @Option(help: "Sample rate when no file sets it, in Hz.")
    var rate: Double = 48000

    @Option(help: ArgumentHelp("With an output template: how many files render at once (default: the number of cores, divided by --threads when given).",
                               valueName: "N"))
    var jobs: Int?

    @Option(help: ArgumentHelp("Threads that render each block: independent branches of the graph (parallel chains, stems, sends) run at once; the output is the same for any N, and 1 renders on one thread. Default: the number of cores (in a batch, the cores left to each of the --jobs).",
                               valueName: "N"))
    var threads: Int?

    @Flag(help: "No progress or summary on stderr.")
    var quiet = false

    @Flag(help: "Print the summary as JSON on stdout.")
    var json = false

    /// Set on the child that renders for `--engine jack` (`runFreewheelInChild`).
    @Flag(help: .private)
    var freewheelWorker = false

    /// A batch's worker process (see `runBatchWorker`): started by the batch, not by people.
    @Flag(name: .customLong("batch-worker"), help: .private)
    var batchWorker = false

    /// `tail` in seconds, parsed once by `validate`.
    private var tailSeconds: Double = 0

    mutating func validate() throws {
        if let block, !(1...8192).contains(block) {
            throw ValidationError("--block must be between 1 and 8192 frames")
        }
        if engine == .jack && block != nil {
            throw ValidationError("with --engine jack the block size is the server's buffer size; leave out --block")
        }
        if engine == .embedded && server != nil {
            throw ValidationError("--server needs --engine jack")
        }
        guard rate > 0 else { throw ValidationError("--rate must be positive") }
        if let jobs, jobs < 1 { throw ValidationError("--jobs must be 1 or more") }
        if let threads, threads < 1 { throw ValidationError("--threads must be 1 or more") }
        tailSeconds = try TimeOption.seconds(tail, option: "--tail", atMost: 3_600)  // an hour of tail at most
    }

    func run() throws {
        if batchWorker { return try runBatchWorker() }
        // Before anything takes stdout for results: the child prints them.
        if engine == .jack && !freewheelWorker { return try runFreewheelInChild() }
        // The child that renders for --engine jack: stop signals come from
        // its parent, and count only while the render catches them.
        if freewheelWorker { for number in [SIGINT, SIGTERM] { signal(number, SIG_IGN) } }
        let jsonOutput = json ? JSONStandardOutput() : nil
        if let batch = try BatchPlan.make(inputs: inputs, outputs: outputs) { return try runBatch(batch, jsonOutput: jsonOutput) }
        if jobs != nil {
            throw CommandLineError("--jobs renders several files at once: name the outputs with a template, e.g. -i 'takes/*.wav' -o 'out/{name}.wav'")
        }

        // From here a crash (a plugin's, most likely) is one sentence naming
        // the node, with the partial files removed and the backtrace in a log.
        // (In the child that renders for --engine jack, it stops rather than ends: see runFreewheelInChild.)
        CrashReport.installForRender(stopsInsteadOfExiting: freewheelWorker)
        let inputAssignments = inputs.map(FileAssignment.init)
        let (graph, firstInput) = try loadGraph(inputs: inputAssignments)
        StartupTimings.mark("graph")
        // A bounce through JACK renders blocks of the server's buffer size at its rate.
        if engine == .jack { JackMessages.silenceUnlessVerbose() }
        let freewheel = try engine == .jack ? FreewheelRenderer(server: server, clientName: "fxhost-render") : nil
        let setup = try setUp(graph: graph, firstInput: firstInput, inputs: inputAssignments,
                              outputs: outputs.map(FileAssignment.init), freewheel: freewheel)
        let plan = setup.plan
        StartupTimings.mark("compile")
        var options = setup.options
        options.threads = threads ?? RenderWorkerPool.availableCores
        let progress = ProgressReporter(enabled: !quiet && !json)
        // Only what is shown: a job with a progress handler reads the clock
        // every block, and peaks are measured on every channel of every block.
        if !quiet && !json { options.progress = { progress.report($0) } }
        options.measuresPeaks = !quiet || json

        let summary: RenderSummary
        if let freewheel {
            let job = try RenderJob(plan: plan, options: options)
            do {
                summary = try freewheel.render(job)
            } catch {
                progress.finish()
                throw error
            }
        } else {
            summary = try OfflineRenderer(plan: plan, options: options).run()
        }
        progress.finish()
        StartupTimings.mark("render")
        if let jsonOutput { return try jsonOutput.print(summary) }
        if !quiet { SummaryPrinter.print(summary) }
    }

    /// The patch and its graph, the patch's live inputs as wide as the first
    /// `-i` file. The first half of every render, single or batch.
    func loadGraph(inputs: [FileAssignment]) throws -> (graph: AudioGraph, firstInput: FileShape?) {
        // MIDI files (for `midi-input` nodes) say nothing of the audio inputs' width.
        let firstInput = try inputs.first { !StandardMIDIFile.isStandardMIDIFile(path: $0.path) }
            .map { try FileShape.read($0.path) }
        let (patch, plugins) = try source.loadForRendering(inputChannels: firstInput?.channels ?? 2)
        return (try PatchLoader(units: plugins.provider).graph(for: patch), firstInput)
    }

    /// The graph compiled at the files' rate (or the server's) and the files
    /// paired with its inputs and outputs: the second half of every render.
    func setUp(graph: AudioGraph, firstInput: FileShape?, inputs: [FileAssignment], outputs: [FileAssignment],
               freewheel: FreewheelRenderer?) throws -> (plan: RenderPlan, options: RenderOptions) {
        let sampleRate = try PatchLoader.sampleRate(of: graph) ?? firstInput?.sampleRate
            ?? freewheel.map { Double($0.sampleRate) } ?? rate
        let blockFrames = freewheel?.bufferSize ?? block ?? 512
        let plan = try graph.compile(format: RenderFormat(sampleRate: sampleRate, maxBlockFrames: blockFrames,
                                                          mode: .offline))

        var options = RenderOptions()
        options.maximumTailSeconds = tailSeconds
        options.tempo = graph.tempo
        options.inputFiles = try FileAssignment.assign(
            inputs, to: plan.sources.compactMap { if case .input = $0.kind { $0.node } else { nil } }
                + plan.midiSources.compactMap { if case .input = $0.kind { $0.node } else { nil } },
            kind: "live input", option: "-i")
        let outputFiles = try FileAssignment.assign(outputs, to: plan.outputs.map(\.node), kind: "output", option: "-o")
        if outputFiles.isEmpty && plan.taps.isEmpty {
            throw CommandLineError(plan.outputs.isEmpty
                ? "this patch has no output and no taps, so a render would write nothing"
                : "say where the output goes with `-o FILE`")
        }
        for (node, path) in outputFiles {
            options.outputFiles[node] = RenderOutputFile(path: path, format: try AudioFileFormat(path: path, name: format))
        }
        return (plan, options)
    }
}
