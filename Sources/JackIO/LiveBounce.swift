import Foundation
import HostCore
import Synchronization

/// A bounce started from a live session: a `RenderJob` rendered by a
/// `FreewheelRenderer` on a thread of its own, so the session's control
/// thread stays free to answer `status` and to cancel it: it reads
/// `progress`, and once `isFinished` `LiveSession.finishBounce` takes the
/// result and puts the live plan back.
package final class LiveBounce: @unchecked Sendable {
    /// The files the patch's outputs are bounced to, in output order.
    package let files: [String]
    /// The timeline range, in seconds (`end` nil: to the end of the sources, then the tail).
    package let startSeconds: Double
    package let endSeconds: Double?

    private let renderer: FreewheelRenderer
    private let job: RenderJob
    private let latest: ProgressBox
    private let outcome = Mutex<Result<RenderSummary, FreewheelError>?>(nil)
    private let done = PosixSemaphore()

    /// Opens the render's files (nothing is rendered until `start`);
    /// `options.progress` is replaced by this object's.
    init(plan: RenderPlan, options: RenderOptions, renderer: FreewheelRenderer) throws(RenderError) {
        let latest = ProgressBox()
        var options = options
        options.progress = { latest.store($0) }
        job = try RenderJob(plan: plan, options: options)
        self.latest = latest
        self.renderer = renderer
        files = plan.outputs.compactMap { options.outputFiles[$0.node]?.path }
        startSeconds = options.startSeconds
        endSeconds = options.endSeconds
    }

    deinit { done.deallocate() }

    /// Starts the render thread, detached: `waitForResult` waits for its
    /// outcome instead of joining it. `notifier` is signalled when it ends.
    func start(notifying notifier: EventNotifier?) {
        do {
            try PosixThread(name: "fxhost bounce") { [self] in
                let result = Result { () throws(FreewheelError) in try renderer.render(job) }
                outcome.withLock { $0 = result }
                done.signal()
                notifier?.signal()
            }.detach()
        } catch {
            job.abort()
            outcome.withLock { $0 = .failure(.cannotStartThread(reason: error.reason)) }
            done.signal()
            notifier?.signal()
        }
    }

    /// The progress the render last reported (nil before its first block).
    package var progress: RenderProgress? { latest.value }

    /// Frames to render before the tail, and the rate: for a progress fraction.
    package var contentFrames: Int { job.contentFrames }
    package var sampleRate: Double { job.plan.format.sampleRate }

    package var isFinished: Bool { outcome.withLock { $0 != nil } }

    /// Stops the render (the server leaves freewheel, no file is kept); the
    /// result is then `.cancelled`. Returns at once.
    package func cancel() { renderer.cancel() }

    /// Waits until the render thread is done and returns its result. `done`
    /// is signalled once, after the outcome is stored (or when the thread
    /// could not start), and waited for here at most once.
    func waitForResult() -> Result<RenderSummary, FreewheelError> {
        if let result = outcome.withLock({ $0 }) { return result }
        done.wait()
        return outcome.withLock { $0 }!
    }
}

/// The latest progress a render reported, shared with the thread that renders.
private final class ProgressBox: Sendable {
    private let latest = Mutex<RenderProgress?>(nil)

    func store(_ progress: RenderProgress) { latest.withLock { $0 = progress } }
    var value: RenderProgress? { latest.withLock { $0 } }
}
