import Foundation
import Glibc
import HostCore
import LiveControl

/// Renders the files of a batch in worker processes: `jobs` of them,
/// started once (`fxhost render --batch-worker` with the batch's own
/// arguments) and each handed the next file when it reports the last one
/// done. Every file is a render of its own in the worker, set up as a
/// single `fxhost render` of that file would be, so each output equals the
/// single render's. A worker that dies (a plugin's crash) fails its file
/// alone, as `crashed`, with its outputs removed; a new worker takes the
/// files left. A file that fails is recorded and the others go on.
final class BatchRenderer {
    private let items: [BatchPlan.Item]
    private let jobs: Int
    private let workerArguments: [String]
    private let progress: BatchProgress
    private var results: [BatchSummary.File?]
    private var workers: [BatchWorkerProcess] = []
    /// The next file to hand over.
    private var next = 0
    /// Why no (further) worker could start: the batch fails with it.
    private var startFailure: String?

    /// `workerArguments`: the worker's argv, argv[0] included.
    init(batch: BatchPlan, jobs: Int, showsProgress: Bool, workerArguments: [String]) {
        items = batch.items
        self.jobs = max(1, min(jobs, batch.items.count))
        self.workerArguments = workerArguments
        // Only the bar needs the lengths: a header read per file.
        let lengths = batch.items.map { item in
            showsProgress ? (try? FileShape.read(item.input)).map { Double($0.frames) / $0.sampleRate } ?? 0 : 0
        }
        progress = BatchProgress(enabled: showsProgress, lengths: lengths)
        results = [BatchSummary.File?](repeating: nil, count: batch.items.count)
    }

    /// Renders every file and sums the batch up, with why the batch stopped
    /// early if a worker could not start. SIGINT or SIGTERM stops it: passed on to the workers, the files
    /// being rendered are removed, the rest not started, the finished ones kept.
    func run() -> (summary: BatchSummary, startFailure: String?) {
        let started = DispatchTime.now()
        let signals = StopSignals()
        defer { signals.restore() }
        // A worker that died must not take the batch with it when a file is handed to it.
        let previousPipeAction = signal(SIGPIPE, SIG_IGN)
        defer { signal(SIGPIPE, previousPipeAction) }
        var stopping: (signal: Int32, since: DispatchTime, killed: Bool)?
        startWorkers()
        while !workers.isEmpty {
            if let signal = signals.caught, stopping == nil {
                stopping = (signal, DispatchTime.now(), false)
                for worker in workers { worker.kill(signal) }
            }
            // A worker stuck in a plugin (that never sees its stop) is killed after a while.
            if let stop = stopping, !stop.killed, DispatchTime.now().uptimeNanoseconds - stop.since.uptimeNanoseconds > 10_000_000_000 {
                for worker in workers { worker.kill(SIGKILL) }
                stopping?.killed = true
            }
            for worker in workers where worker.isReady && worker.file == nil {
                handOver(to: worker, stopping: stopping != nil)
            }
            waitForWorkers()
            for worker in workers { read(worker) }
            // With both pipes at their end it is ending: wait for it; else only look.
            for worker in workers where worker.reap(blocking: worker.reports < 0 && worker.errors < 0) {
                read(worker)  // what it wrote before it ended
                ended(worker, stop: stopping?.signal)
            }
            workers.removeAll { $0.hasEnded }
            if stopping == nil { startWorkers() }
        }
        progress.finish()
        let files = results.enumerated().map { index, file in
            file ?? BatchSummary.File(number: items[index].number, input: items[index].input,
                                      outputs: items[index].outputs.map(\.path),
                                      error: stopping.map { "not rendered: the batch was interrupted by \(signalName($0.signal))" }
                                          ?? "not rendered: no batch worker could start")
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        let summary = BatchSummary(jobs: jobs, elapsedSeconds: elapsed, interruptedBy: stopping?.signal, files: files)
        return (summary, startFailure)
    }

    /// Up to `jobs` workers, and no more than there are files left for:
    /// at the start, and for each worker that died with files left.
    private func startWorkers() {
        while startFailure == nil, workers.count < jobs, workers.filter({ $0.file == nil }).count < items.count - next {
            do {
                workers.append(try BatchWorkerProcess(executable: ChildProcess.thisExecutable, arguments: workerArguments))
            } catch {
                startFailure = (error as? any UserFacingError)?.description ?? String(describing: error)
            }
        }
    }

    /// The next file to `worker`, or no more files.
    private func handOver(to worker: BatchWorkerProcess, stopping: Bool) {
        guard !stopping, startFailure == nil, next < items.count else { return worker.closeInput() }
        let index = next
        next += 1
        let item = items[index]
        worker.file = index
        worker.lastError = nil
        worker.outputsBefore = [:]
        for output in item.outputs { worker.outputsBefore[output.path] = FileIdentity(path: output.path) }
        guard let data = try? JSONEncoder().encode(BatchWorkerAssignment(index: index, item: item)),
              worker.send(String(decoding: data, as: UTF8.self)) else {
            worker.closeInput()  // gone: `ended` fails the file
            return
        }
    }

    /// Until a worker writes, ends, or a tenth of a second passes (to see a stop signal).
    private func waitForWorkers() {
        var descriptors = workers.flatMap { [$0.reports, $0.errors] }.filter { $0 >= 0 }
            .map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&descriptors, nfds_t(descriptors.count), 100)
    }

    private func read(_ worker: BatchWorkerProcess) {
        let bytes = worker.readAvailable()
        var reportLines = worker.reportLines.append(bytes.reports)
        if worker.reports < 0, let last = worker.reportLines.finish() { reportLines.append(last) }
        for line in reportLines where worker.stoppedBecause == nil { report(line, from: worker) }
        var errorLines = worker.errorLines.append(bytes.errors)
        if worker.errors < 0, let last = worker.errorLines.finish() { errorLines.append(last) }
        for line in errorLines {
            // A crash's own sentence is kept for the summary; the rest is the user's to read.
            let prefix = "fxhost: error: "
            if line.text.hasPrefix(prefix), worker.file != nil || !worker.isReady {
                worker.lastError = String(line.text.dropFirst(prefix.count))
            } else {
                progress.printAbove(line.text)
            }
        }
    }

    /// One line of a worker's protocol.
    private func report(_ line: LineBuffer.Line, from worker: BatchWorkerProcess) {
        guard !line.wasCut, let message = try? BatchWorkerMessage.decoder().decode(BatchWorkerMessage.self, from: Data(line.text.utf8)) else {
            return stop(worker, because: "sent the batch a report it could not read")
        }
        if message.ready == true {
            worker.isReady = true
            return
        }
        guard let index = message.index, index == worker.file else {
            return stop(worker, because: "reported on a file it was not rendering")
        }
        if let fraction = message.progress {
            if fraction.isFinite { progress.report(index, fraction: min(1, max(0, fraction))) }
            return
        }
        let item = items[index]
        var file = BatchSummary.File(number: item.number, input: item.input, outputs: item.outputs.map(\.path))
        if let render = message.render {
            file.render = render
            file.durationSeconds = render.durationSeconds
        } else {
            file.error = message.error ?? "the batch worker reported neither a render nor an error"
        }
        finished(index, file)
        worker.file = nil
        // An error line held back as a possible crash sentence, from a worker that lived on: the user's after all.
        if let held = worker.lastError { progress.printAbove("fxhost: error: " + held) }
        worker.lastError = nil
    }

    /// A worker whose reports cannot be trusted is treated as crashed.
    private func stop(_ worker: BatchWorkerProcess, because reason: String) {
        worker.stoppedBecause = reason
        worker.kill(SIGKILL)
    }

    /// `worker` is gone: the file it held, if any, failed.
    private func ended(_ worker: BatchWorkerProcess, stop: Int32?) {
        guard let index = worker.file else {
            if !worker.isReady, startFailure == nil, stop == nil {
                startFailure = worker.lastError ?? "a batch worker could not start ("
                    + (worker.stoppedBecause ?? describe(worker.ending)) + ")"
            }
            return
        }
        worker.file = nil
        let item = items[index]
        removeOutputs(of: item, before: worker.outputsBefore)
        var file = BatchSummary.File(number: item.number, input: item.input, outputs: item.outputs.map(\.path))
        if let stop, worker.stoppedBecause == nil, case .signalled(let signal)? = worker.ending, signal == stop || signal == SIGKILL {
            file.error = "not rendered: the batch was interrupted by \(signalName(stop))"
        } else {
            file.crashed = true
            file.error = worker.stoppedBecause.map { "the worker rendering `\(item.input)` \($0), so it was stopped" }
                ?? worker.lastError ?? "crashed (\(describe(worker.ending))) while rendering `\(item.input)`"
        }
        finished(index, file)
    }

    private func finished(_ index: Int, _ file: BatchSummary.File) {
        results[index] = file
        progress.finished(index, failed: file.error != nil)
    }

    /// What a dead worker left of `item`: the hidden partial files, and every
    /// output that was not there, or was another file, when it took the file.
    private func removeOutputs(of item: BatchPlan.Item, before: [String: FileIdentity]) {
        for output in item.outputs {
            unlink(AudioFileWriter.partialPath(for: output.path))
            if let now = FileIdentity(path: output.path), now != before[output.path] { unlink(output.path) }
        }
    }

    private func describe(_ ending: ChildProcess.Ending?) -> String {
        ending?.description ?? "still running"
    }
}
