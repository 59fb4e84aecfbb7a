import Foundation

/// The embedded offline driver: renders a `RenderSession` block by block
/// on the calling thread, as fast as the plugins allow.
public final class OfflineRenderer {
    private let session: RenderSession

    /// Opens every input and output; nothing is rendered yet.
    public init(plan: RenderPlan, options: RenderOptions) throws(RenderError) {
        session = try RenderSession(plan: plan, options: options)
    }

    /// Renders to the end (sources plus tail) and finishes every file. A
    /// SIGINT or SIGTERM stops it with every partial file removed.
    public func run() throws(RenderError) -> RenderSummary {
        let signals = StopSignals()
        defer { signals.restore() }
        try session.start()
        let block = session.plan.format.maxBlockFrames
        while !session.isFinished {
            if let signal = signals.caught {
                session.abort()
                throw .interrupted(signal: signal)
            }
            try session.renderNextBlock(maxFrames: block)
        }
        return try session.finish()
    }
}
