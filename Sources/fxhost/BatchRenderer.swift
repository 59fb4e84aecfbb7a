import Foundation
import HostCore
import LiveControl
import LV2Bridge
import Synchronization

/// Renders the files of a batch, several at once: a pool of `jobs`
/// threads, each taking the next file until none is left. Every file is a
/// render of its own — its own lilv world, plugin instances and
/// `RenderJob`, set up by `setUp` as a single `fxhost render` of that file
/// would be — so no plugin state passes from one file to the next and each
/// output equals the single render's. Set-up and tear-down hold the
/// `PluginSetupGate` alone (LV2's threading rules); blocks render side by
/// side. A file that fails is recorded and the others go on.
final class BatchRenderer {
    typealias SetUp = (BatchPlan.Item) throws -> (plan: RenderPlan, options: RenderOptions)

    private let items: [BatchPlan.Item]
    private let jobs: Int
    private let setUp: SetUp
    /// The one the LV2 units take too: a file's set-up makes them inside it.
    private let gate = PluginSetupGate.process
    private let progress: BatchProgress
    /// The next file a job takes.
    private let next = Atomic<Int>(0)
    private let results: Mutex<[BatchSummary.File?]>

    init(batch: BatchPlan, jobs: Int, showsProgress: Bool, setUp: @escaping SetUp) {
        items = batch.items
        self.jobs = max(1, min(jobs, batch.items.count))
        self.setUp = setUp
        // Only the bar needs the lengths: a header read per file.
        let lengths = batch.items.map { item in
            showsProgress ? (try? FileShape.read(item.input)).map { Double($0.frames) / $0.sampleRate } ?? 0 : 0
        }
        progress = BatchProgress(enabled: showsProgress, lengths: lengths)
        results = Mutex([BatchSummary.File?](repeating: nil, count: batch.items.count))
    }

    /// Renders every file and sums the batch up. SIGINT or SIGTERM stops it:
    /// the files being rendered are removed, the rest not started, the
    /// finished ones kept.
    func run() -> BatchSummary {
        let started = DispatchTime.now()
        let signals = StopSignals()
        defer { signals.restore() }
        let stop = { signals.caught }
        var threads: [PosixThread] = []
        for number in 1...jobs {
            guard let thread = try? PosixThread(name: "fxhost job \(number)", body: { self.work(stop: stop) }) else { break }
            threads.append(thread)
        }
        if threads.isEmpty { work(stop: stop) }  // no thread could start: render here, one by one
        for thread in threads { thread.join() }
        progress.finish()
        let files = results.withLock { $0 }.enumerated().map { index, file in
            file ?? BatchSummary.File(number: items[index].number, input: items[index].input,
                                      outputs: items[index].outputs.map(\.path), error: "not rendered")
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        return BatchSummary(jobs: jobs, elapsedSeconds: elapsed, interruptedBy: signals.caught, files: files)
    }

    /// One job: takes the next file until none is left.
    private func work(stop: () -> Int32?) {
        while true {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            guard index < items.count else { return }
            let item = items[index]
            var file = BatchSummary.File(number: item.number, input: item.input, outputs: item.outputs.map(\.path))
            if let signal = stop() {
                file.error = "not rendered: the batch was interrupted by \(signalName(signal))"
            } else {
                do {
                    let summary = try render(item, index: index, stop: stop)
                    file.render = summary
                    file.durationSeconds = summary.durationSeconds
                } catch {
                    file.error = (error as? any UserFacingError)?.description ?? String(describing: error)
                }
            }
            progress.finished(index, failed: file.error != nil)
            results.withLock { $0[index] = file }
        }
    }

    /// One file, as a single render does it, with set-up and tear-down behind the gate.
    private func render(_ item: BatchPlan.Item, index: Int, stop: () -> Int32?) throws -> RenderSummary {
        // The job is the last holder of the plan and its plugin instances:
        // it is let go of inside the gate, so `cleanup()` runs alone too.
        // Only `job` holds it (no local copy that could outlive the defer).
        var job: RenderJob?
        defer { gate.alone { job = nil } }
        job = try gate.alone {
            let setup = try setUp(item)
            var options = setup.options
            options.progress = { [progress] in progress.report(index, $0) }
            return try RenderJob(plan: setup.plan, options: options)
        }
        try job!.start()
        let block = job!.plan.format.maxBlockFrames
        while !job!.isFinished {
            if let signal = stop() {
                job!.abort()
                throw RenderError.interrupted(signal: signal)
            }
            try gate.shared { _ = try job!.renderNextBlock(maxFrames: block) }
        }
        return try job!.finish()
    }
}
