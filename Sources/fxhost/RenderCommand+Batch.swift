import Foundation
import HostCore
import LiveControl

extension RenderCommand {
    /// Renders every file of `batch` on its own, `--jobs` worker processes at
    /// once, each file set up exactly as a single render of it, then sums them
    /// up. Exits non-zero when any file failed or crashed (after the others rendered).
    func runBatch(_ batch: BatchPlan, jsonOutput: JSONStandardOutput?) throws {
        guard engine == .embedded else {
            throw CommandLineError("a batch renders with the embedded engine (JACK freewheels one render at a time): leave out --engine jack")
        }
        // A patch file is read once before anything renders, so its mistakes
        // are said once, not once per file; its taps would write one file for
        // every file of the batch.
        if let path = source.patch, let tap = try PatchParser.load(path: path).taps.first {
            throw CommandLineError("a batch cannot record the patch's taps: every file would write `\(tap.file)`; remove the taps or render the files one by one")
        }
        // Files at once and threads per file share the cores: by default
        // every core renders a file of its own (whole files are the cheapest
        // parallel work), and --threads leaves the rest to --jobs.
        let cores = RenderWorkerPool.availableCores
        let jobs = self.jobs ?? max(1, cores / (threads ?? 1))
        let threadsPerFile = threads ?? max(1, cores / jobs)
        // Each worker is this command again, with the files left out (it is handed them one by one).
        let workerArguments = ChildProcess.thisCommand(adding: ["--batch-worker", "--threads", String(threadsPerFile)])
        let renderer = BatchRenderer(batch: batch, jobs: jobs, showsProgress: !quiet && !json, workerArguments: workerArguments)
        let (summary, startFailure) = renderer.run()
        if let jsonOutput {
            try jsonOutput.print(summary)
        } else if !quiet {
            SummaryPrinter.print(summary)
        }
        if let startFailure {
            throw CommandLineError("\(startFailure); \(summary.rendered) of \(summary.files.count) files were rendered")
        }
        if let signal = summary.interruptedBy {
            throw CommandLineError("interrupted by \(signalName(signal)): \(summary.rendered) of \(summary.files.count) files were rendered and kept, the others not")
        }
        if summary.failed > 0 {
            let crashed = summary.crashed > 0 ? " (\(summary.crashed) crashed)" : ""
            throw CommandLineError("\(summary.failed) of \(summary.files.count) files failed to render\(crashed); the others were rendered")
        }
    }
}
