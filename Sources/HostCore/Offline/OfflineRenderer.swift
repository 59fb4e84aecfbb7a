import Foundation

/// The embedded offline driver: renders a `RenderJob` block by block
/// on the calling thread, as fast as the plugins allow. Each block holds
/// the plan's `threadingGate` shared, so renders on other threads can set
/// plugins up between blocks within LV2's rules (don't compile a graph or
/// let a plan go from the progress handler: it runs inside the block).
public final class OfflineRenderer {
    private let job: RenderJob

    /// Opens every input and output; nothing is rendered yet.
    public init(plan: RenderPlan, options: RenderOptions) throws(RenderError) {
        job = try RenderJob(plan: plan, options: options)
    }

    /// Renders to the end (sources plus tail) and finishes every file. A
    /// SIGINT or SIGTERM stops it with every partial file removed.
    public func run() throws(RenderError) -> RenderSummary {
        let signals = StopSignals()
        defer { signals.restore() }
        try job.start()
        let block = job.plan.format.maxBlockFrames
        let gate = job.plan.threadingGate
        while !job.isFinished {
            if let signal = signals.caught {
                job.abort()
                throw .interrupted(signal: signal)
            }
            if let gate {
                try gate.shared { () throws(RenderError) in _ = try job.renderNextBlock(maxFrames: block) }
            } else {
                try job.renderNextBlock(maxFrames: block)
            }
        }
        return try job.finish()
    }
}
