import Foundation
import HostCore
import LiveControl
import LV2Bridge

extension RenderCommand {
    /// `render --batch-worker` (hidden): one of a batch's worker processes.
    /// It reads files from stdin, a `BatchWorkerAssignment` per line, and
    /// renders each as a single `fxhost render` of that file would (its own
    /// world, units and renderer), one at a time, reporting progress and the
    /// result on its protocol channel. A crash here ends this process only:
    /// the parent fails that file and starts another worker for the rest.
    func runBatchWorker() throws {
        // A plugin crash is one sentence naming the node (the parent takes it
        // as the file's), with the file's partial outputs removed.
        CrashReport.installForRender()
        let channel = try BatchWorkerChannel()
        // Between files a SIGINT or SIGTERM ends the worker after the file in
        // hand; during one, the render's own handler interrupts it.
        let signals = StopSignals()
        defer { signals.restore() }
        channel.send(.ready)
        let decoder = JSONDecoder()
        while signals.caught == nil, let line = readLine(strippingNewline: true) {
            guard let assignment = try? decoder.decode(BatchWorkerAssignment.self, from: Data(line.utf8)) else {
                throw CommandLineError("a batch worker was handed a line it could not read")
            }
            var message = BatchWorkerMessage(index: assignment.index)
            do {
                try renderAlone(assignment.item, progress: { fraction in
                    channel.send(BatchWorkerMessage(index: assignment.index, progress: fraction))
                }, finished: { summary in
                    message.render = summary
                    channel.send(message)
                })
            } catch {
                message.error = (error as? any UserFacingError)?.description ?? String(describing: error)
                channel.send(message)
            }
        }
    }

    /// One file, set up exactly as a single render of it; set-up and
    /// tear-down behind the LV2 set-up gate, as LV2's threading rules ask
    /// (in a worker nothing else renders, so it never waits).
    /// `finished` hears of the finished file before the plugins are freed, so
    /// a crash in a plugin's cleanup() cannot undo a file already written.
    private func renderAlone(_ item: BatchPlan.Item, progress: @escaping @Sendable (Double) -> Void,
                             finished: (RenderSummary) -> Void) throws {
        let gate = PluginSetupGate.process
        // The renderer is the last holder of the plan and its plugin
        // instances: let go of inside the gate, so `cleanup()` runs alone too.
        var renderer: OfflineRenderer?
        defer { gate.alone { renderer = nil } }
        renderer = try gate.alone {
            let inputs = [FileAssignment(node: item.node, path: item.input)]
            let (graph, firstInput) = try loadGraph(inputs: inputs)
            var setup = try setUp(graph: graph, firstInput: firstInput, inputs: inputs, outputs: item.outputs, freewheel: nil)
            setup.options.threads = threads ?? 1
            setup.options.progress = { report in
                guard !report.finished else { return }
                progress(report.framesExpected > 0 ? min(1, Double(report.framesDone) / Double(report.framesExpected)) : 1)
            }
            return try OfflineRenderer(plan: setup.plan, options: setup.options)
        }
        finished(try renderer!.run())
    }
}
