import CCoreShim
import CLilv
import Foundation
import HostCore
import Synchronization

/// The LV2 worker for one plugin instance (worker:schedule).
///
/// Offline, `schedule_work` runs the plugin's `work()` at once, on the
/// rendering thread, as the worker spec allows for non-realtime hosts.
/// Live, requests go through a lock-free ring to a worker thread woken by
/// a semaphore (`sem_post` is realtime-safe). Either way responses queue in
/// a ring and are delivered, followed by `end_run`, in the kernel's
/// after-run hook — never inside `run()`.
final class LV2Worker {
    typealias WorkFunction = @convention(c) (LV2_Handle?, LV2_Worker_Respond_Function?, LV2_Worker_Respond_Handle?,
                                             UInt32, UnsafeRawPointer?) -> LV2_Worker_Status

    /// Everything the C callbacks touch: plain values and pointers.
    struct State {
        var interface: UnsafePointer<LV2_Worker_Interface>?
        var plugin: LV2_Handle?
        var live: Bool
        var requests: ByteRing
        var responses: ByteRing
        /// Where the worker thread reads a request.
        var requestBuffer: UnsafeMutableRawPointer
        /// Where the realtime thread reads a response.
        var responseBuffer: UnsafeMutableRawPointer
        var wake: PosixSemaphore
        var stopping: UnsafeMutablePointer<Atomic<Bool>>
        var counters: UnsafeMutablePointer<LV2WorkerCounters>
    }

    static let ringCapacity = 1 << 16
    let state: UnsafeMutablePointer<State>
    private var thread: PosixThread?

    init(mode: RenderMode) {
        let requests = ByteRing(capacity: Self.ringCapacity)
        let responses = ByteRing(capacity: Self.ringCapacity)
        let wake = PosixSemaphore()
        let stopping = UnsafeMutablePointer<Atomic<Bool>>.allocate(capacity: 1)
        stopping.initialize(to: Atomic(false))
        let counters = UnsafeMutablePointer<LV2WorkerCounters>.allocate(capacity: 1)
        counters.initialize(to: LV2WorkerCounters())
        state = .allocate(capacity: 1)
        state.initialize(to: State(
            interface: nil, plugin: nil, live: mode == .live, requests: requests, responses: responses,
            requestBuffer: .allocate(byteCount: requests.capacity, alignment: 16),
            responseBuffer: .allocate(byteCount: responses.capacity, alignment: 16),
            wake: wake, stopping: stopping, counters: counters))
    }

    /// Requests not yet worked, and how many `work()` calls have failed so far.
    var progress: (idle: Bool, failures: Int) {
        (state.pointee.counters.pointee.isIdle, state.pointee.counters.pointee.failed.load(ordering: .acquiring))
    }

    /// The worker:schedule feature data; valid while the worker lives.
    func makeScheduleFeature(in arena: CArena) -> UnsafeMutablePointer<LV2_Worker_Schedule> {
        arena.store(LV2_Worker_Schedule(handle: UnsafeMutableRawPointer(state), schedule_work: { context, size, data in
            guard let context else { return LV2_WORKER_ERR_UNKNOWN }
            return LV2Worker.schedule(context.assumingMemoryBound(to: State.self), size: size, data: data)
        }))
    }

    /// Connects the instance once it exists. Without a worker interface (a
    /// plugin that asks for the feature but offers no interface), every
    /// request is refused.
    func attach(interface: UnsafePointer<LV2_Worker_Interface>?, plugin: LV2_Handle?) {
        state.pointee.interface = interface
        state.pointee.plugin = plugin
    }

    /// Drops requests and responses not yet handled: after the instance was
    /// reset (deactivated and activated) they belong to a state that is gone.
    /// Only while the thread is not running and nothing renders.
    func discardPending() {
        while state.pointee.requests.take(into: state.pointee.requestBuffer) != nil {
            state.pointee.counters.pointee.countWorked(succeeded: true)  // dropped, not failed
        }
        while state.pointee.responses.take(into: state.pointee.responseBuffer) != nil {}
    }

    /// Before the thread starts, runs `body` with the worker answering at
    /// once, as offline: requests already queued are worked first, and
    /// those `body` makes are worked as they come. For an instance that must
    /// load its files before it plays (`LV2Unit.settleLatency`).
    func synchronously(_ body: () -> Void) {
        guard thread == nil, state.pointee.live else { return body() }
        state.pointee.live = false
        defer { state.pointee.live = true }
        if let work = state.pointee.interface?.pointee.work {
            while let size = state.pointee.requests.take(into: state.pointee.requestBuffer) {
                Self.work(state, work, size: size, data: UnsafeRawPointer(state.pointee.requestBuffer))
            }
        }
        body()
    }

    /// Live, starts the worker thread (again after `stop`). Until then
    /// requests wait in the ring; a restarted thread is woken for them.
    func start() throws(UnitError) {
        guard thread == nil, state.pointee.live, state.pointee.interface != nil else { return }
        state.pointee.stopping.pointee.store(false, ordering: .releasing)
        let state = state
        do {
            thread = try PosixThread(name: "fxhost worker") { LV2Worker.threadMain(state) }
        } catch {
            throw UnitError("could not start the LV2 worker thread: \(error.reason)")
        }
        state.pointee.wake.signal()
    }

    /// Stops the thread once the work() it runs has returned; call before
    /// the plugin instance is freed, or to call a function no work() may
    /// overlap (options:interface `set`). Requests not yet taken stay queued.
    func stop() {
        guard let thread else { return }
        state.pointee.stopping.pointee.store(true, ordering: .releasing)
        state.pointee.wake.signal()
        thread.join()
        self.thread = nil
    }

    deinit {
        stop()
        let state = state.pointee
        state.requests.deallocate()
        state.responses.deallocate()
        state.requestBuffer.deallocate()
        state.responseBuffer.deallocate()
        state.wake.deallocate()
        state.stopping.deinitialize(count: 1)
        state.stopping.deallocate()
        state.counters.deinitialize(count: 1)
        state.counters.deallocate()
        self.state.deinitialize(count: 1)
        self.state.deallocate()
    }

    /// The after-run hook that delivers responses and calls end_run.
    var afterRunHook: KernelHook {
        KernelHook(function: { context in
            LV2Worker.deliverResponses(context!.assumingMemoryBound(to: State.self))
        }, context: UnsafeMutableRawPointer(state))
    }

    // MARK: C-side entry points (no references, no allocation)

    /// Called by the plugin from run(): on the realtime thread when live
    /// (then only `queue` runs, which is realtime-safe); offline, the
    /// plugin's work() runs here, and may block, so this is not marked.
    static func schedule(_ state: UnsafeMutablePointer<State>, size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        guard let interface = state.pointee.interface, let work = interface.pointee.work else {
            return LV2_WORKER_ERR_UNKNOWN
        }
        if state.pointee.live { return queue(state, size: size, data: data) }
        state.pointee.counters.pointee.requested.add(1, ordering: .releasing)
        return Self.work(state, work, size: size, data: data)
    }

    /// Runs the plugin's `work()` on one request and counts how it went.
    @discardableResult
    private static func work(_ state: UnsafeMutablePointer<State>, _ work: WorkFunction,
                             size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        // Offline this runs inside run(): marked `work()`, then `run()` again.
        let status = PluginCall.marked(FXHOST_CALL_WORK) {
            work(state.pointee.plugin, { context, size, data in
                LV2Worker.respond(context!.assumingMemoryBound(to: State.self), size: size, data: data)
            }, UnsafeMutableRawPointer(state), size, data)
        }
        state.pointee.counters.pointee.countWorked(succeeded: status == LV2_WORKER_SUCCESS)
        return status
    }

    /// Live: hands a request to the worker thread and wakes it.
    @_noLocks
    static func queue(_ state: UnsafeMutablePointer<State>, size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        guard state.pointee.requests.write(data, size: size) else { return LV2_WORKER_ERR_NO_SPACE }
        state.pointee.counters.pointee.requested.add(1, ordering: .releasing)
        state.pointee.wake.signal()
        return LV2_WORKER_SUCCESS
    }

    /// Called by the plugin from work().
    @_noLocks
    static func respond(_ state: UnsafeMutablePointer<State>, size: UInt32, data: UnsafeRawPointer?) -> LV2_Worker_Status {
        state.pointee.responses.write(data, size: size) ? LV2_WORKER_SUCCESS : LV2_WORKER_ERR_NO_SPACE
    }

    /// After each run: hand queued responses to the plugin, then end_run.
    @_noLocks
    static func deliverResponses(_ state: UnsafeMutablePointer<State>) {
        guard let interface = state.pointee.interface else { return }
        let buffer = state.pointee.responseBuffer
        if let workResponse = interface.pointee.work_response {
            while let size = state.pointee.responses.take(into: buffer) {
                _unsafePerformance { _ = workResponse(state.pointee.plugin, size, UnsafeRawPointer(buffer)) }
            }
        }
        if let endRun = interface.pointee.end_run {
            _unsafePerformance { _ = endRun(state.pointee.plugin) }
        }
    }

    /// The live worker thread: waits for requests and runs work() for each.
    static func threadMain(_ state: UnsafeMutablePointer<State>) {
        guard let work = state.pointee.interface?.pointee.work else { return }
        while true {
            state.pointee.wake.wait()
            if state.pointee.stopping.pointee.load(ordering: .acquiring) { return }
            while let size = state.pointee.requests.take(into: state.pointee.requestBuffer) {
                Self.work(state, work, size: size, data: UnsafeRawPointer(state.pointee.requestBuffer))
            }
        }
    }
}
