import Glibc

/// Called by: any thread, the realtime thread included.
///
/// CLOCK_MONOTONIC in nanoseconds: a vDSO read, no syscall, no lock. What
/// the live engine times its cycles with, and render workers the blocks.
package enum MonotonicClock {
    @inlinable @_noLocks
    package static func nanoseconds() -> Int {
        var time = timespec()
        _unsafePerformance { _ = clock_gettime(CLOCK_MONOTONIC, &time) }
        return time.tv_sec &* 1_000_000_000 &+ time.tv_nsec
    }
}
