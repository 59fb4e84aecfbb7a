import Foundation

/// Called by: a control thread (start and stop), never the realtime thread.
///
/// The worker threads that help render blocks (`RenderWorkers`), and the
/// memory they share. `threads` counts the thread that owns each block too:
/// 1 starts no worker, and renders stay serial. Offline the workers are plain
/// threads; live they are the server's realtime threads, made by whatever
/// `startThread` the driver passes (JACK's `jack_client_create_thread`).
/// `stop()` must be called once no block is being rendered any more.
package final class RenderWorkerPool {
    /// Starts a thread named `name` running `body`; returns how to join it.
    package typealias ThreadStarter = (_ name: String, _ body: @escaping () -> Void) throws -> () -> Void

    /// What the owner of each block uses (a handle: copy it into realtime state).
    package let workers: RenderWorkers
    private let state: UnsafeMutablePointer<RenderWorkersState>
    private var joins: [() -> Void] = []
    private var stopped = false

    /// `realtime`: workers run their tasks inside the sanitizer's realtime
    /// section (live). Throws when a thread cannot be started, after
    /// stopping those that were.
    package init(threads: Int, realtime: Bool, startThread: ThreadStarter? = nil) throws {
        let workerCount = max(threads - 1, 0)
        state = .allocate(capacity: 1)
        state.initialize(to: RenderWorkersState(realtime: realtime))
        workers = RenderWorkers(state: state, workerCount: workerCount)
        let start = startThread ?? { name, body in
            let thread = try PosixThread(name: name, body: body)
            return { thread.join() }
        }
        do {
            for number in 0..<workerCount {
                let workers = self.workers
                joins.append(try start("fxhost render \(number + 1)", { workers.serve(thread: number + 1) }))
            }
        } catch {
            stop()
            throw error
        }
    }

    /// Stops and joins every worker. Idempotent.
    package func stop() {
        guard !stopped else { return }
        stopped = true
        workers.stop(workerThreads: joins.count)
        for join in joins { join() }
    }

    deinit {
        stop()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// The number of cores this process may use: the default for `--threads`
    /// and `--jobs`.
    package static var availableCores: Int { ProcessInfo.processInfo.activeProcessorCount }
}
