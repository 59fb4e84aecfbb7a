import Synchronization

/// What one instance's worker has been asked and how it went, counted where
/// it happens (the realtime thread queues, the worker thread works) and read
/// by the control thread: whether a file the host sent is still loading, and
/// whether the plugin's `work()` said it failed (x42's convolver returns an
/// error when an impulse response does not load).
struct LV2WorkerCounters: ~Copyable {
    /// Requests taken for work: queued live, or worked at once offline.
    let requested = Atomic<Int>(0)
    /// Requests whose `work()` has returned.
    let worked = Atomic<Int>(0)
    /// Requests whose `work()` returned anything but success.
    let failed = Atomic<Int>(0)

    /// After a `work()` call returned.
    @_noLocks
    func countWorked(succeeded: Bool) {
        if !succeeded { failed.add(1, ordering: .releasing) }
        worked.add(1, ordering: .releasing)
    }

    var isIdle: Bool {
        worked.load(ordering: .acquiring) >= requested.load(ordering: .acquiring)
    }
}
