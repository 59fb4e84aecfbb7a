import Synchronization

/// What the thread that owns a block (the process callback live, the render
/// thread offline) shares with the worker threads that help render it. In
/// memory of its own; `RenderWorkers` is the handle both sides hold.
///
/// The door: bit 32 says a block is open, the low 32 bits count workers
/// inside it, and the bits above count blocks. The owner writes `program`
/// and `frames` and resets the counters only while the door is shut and
/// nobody is inside, then opens it with a releasing store; a worker enters
/// with an acquiring compare-exchange that only succeeds while it is open.
package struct RenderWorkersState: ~Copyable {
    @inlinable package static var openBit: Int { @_noLocks get { 1 &<< 32 } }
    @inlinable package static var insideMask: Int { @_noLocks get { (1 &<< 32) &- 1 } }
    @inlinable package static var blockShift: Int { @_noLocks get { 33 } }

    package let door = Atomic<Int>(0)
    /// Tasks taken so far in this block.
    package let claimed = Atomic<Int>(0)
    /// Tasks finished in this block.
    package let completed = Atomic<Int>(0)
    /// Workers waiting on `wake` that nobody has signalled yet.
    package let sleepers = Atomic<Int>(0)
    package let stopping = Atomic<Bool>(false)
    package let wake = PosixSemaphore()
    /// An owner that may wait (`renderWaiting`) sleeps on `done` once it
    /// has set `ownerWaiting`; the thread that finishes the last task
    /// clears the flag and signals.
    package let ownerWaiting = Atomic<Bool>(false)
    package let done = PosixSemaphore()
    /// Workers enter RealtimeSanitizer's realtime section while they render.
    package let realtime: Bool
    /// The block: written by the owner while the door is shut and empty.
    package var program: RenderProgram
    package var frames = 0
    /// When the last block opened, and the time between the last two
    /// (CLOCK_MONOTONIC nanoseconds): a worker sleeps until shortly before
    /// the next block is due, then spins for it, so a periodic caller (a
    /// JACK cycle) finds it awake without it spinning through the period.
    package let lastOpen = Atomic<Int>(0)
    package let period = Atomic<Int>(0)
    /// Tasks run by workers (not the owner), for tests and status.
    package let tasksRunByWorkers = Atomic<Int>(0)

    init(realtime: Bool) {
        self.realtime = realtime
        program = RenderProgram(ops: UnsafeBufferPointer(start: nil, count: 0),
                                connections: UnsafeBufferPointer(start: nil, count: 0), maxBlockFrames: 0)
    }

    deinit {
        wake.deallocate()
        done.deallocate()
    }
}
