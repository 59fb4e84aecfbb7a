import Glibc

/// Called by: the realtime thread (`signal()` only); the waits on other threads.
///
/// A POSIX semaphore in memory of its own: `signal()` (sem_post) is safe on
/// a realtime thread, unlike pthread_cond_signal. A copyable handle;
/// the creator calls `deallocate()` when no thread uses it any more.
package struct PosixSemaphore: @unchecked Sendable {
    @usableFromInline let semaphore: UnsafeMutablePointer<sem_t>

    package init(value: UInt32 = 0) {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, value)
    }

    package func deallocate() {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// Wakes one waiter (or lets the next wait pass). Realtime-safe.
    @inlinable @_noLocks
    package func signal() {
        _unsafePerformance { _ = sem_post(semaphore) }
    }

    /// Blocks until signalled. Not for the realtime thread.
    package func wait() {
        while sem_wait(semaphore) != 0 && errno == EINTR {}
    }

    /// Takes a pending signal if there is one, without waiting.
    package func tryWait() -> Bool {
        sem_trywait(semaphore) == 0
    }

    /// Waits until signalled or CLOCK_MONOTONIC reaches `deadline`
    /// (nanoseconds). Returns true when signalled.
    package func wait(untilMonotonic deadline: Int) -> Bool {
        let left = deadline - MonotonicClock.nanoseconds()
        if left <= 0 { return tryWait() }
        return wait(seconds: Double(left) / 1e9)
    }

    /// Waits until signalled or `seconds` pass. Returns true when signalled.
    package func wait(seconds: Double) -> Bool {
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + Int(seconds * 1e9)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while true {
            if sem_timedwait(semaphore, &deadline) == 0 { return true }
            if errno != EINTR { return false }
        }
    }
}
