import CCoreShim
import Synchronization

/// Called by: the thread that owns each block (`render`: the process
/// callback live, the render thread offline) and the worker threads
/// (`serve`), which `RenderWorkerPool` starts and stops.
///
/// Renders a block of a program's tasks on several threads. The owner opens
/// the block, takes part in it until every task is claimed, then spins until
/// the last one is done: it never sleeps, so a block ends even if no worker
/// wakes. Workers sleep on a semaphore between blocks; the owner signals as
/// many as there are tasks ready at once, and a task's end signals more when
/// it makes several ready. A worker that runs out of ready tasks spins
/// briefly before it sleeps. A task is ready once its count of unfinished
/// predecessors is zero and taken by one atomic exchange (see
/// `RenderTaskLayout`), so no task runs twice and none before its
/// predecessors; the results are the serial program's bits whatever thread
/// runs what (see `TaskPartition`).
///
/// A handle of one pointer, copied into realtime state without reference
/// counting; `RenderWorkerPool` owns the memory.
package struct RenderWorkers: @unchecked Sendable {
    package let state: UnsafeMutablePointer<RenderWorkersState>
    /// Worker threads besides the owner.
    package let workerCount: Int

    /// Spins a worker waits for the next ready task, or the next block,
    /// before it sleeps (a few tens of microseconds).
    @inlinable package static var idleSpins: Int { @_noLocks get { 2_000 } }

    init(state: UnsafeMutablePointer<RenderWorkersState>, workerCount: Int) {
        self.state = state
        self.workerCount = workerCount
    }

    /// Tasks workers (not the owner) have run so far.
    package var tasksRunByWorkers: Int { state.pointee.tasksRunByWorkers.load(ordering: .relaxed) }

    // MARK: The owner (realtime half)

    /// Renders one block of `frames`: serially when the program has fewer
    /// than two tasks or there are no workers, else shared with the workers.
    /// Realtime-safe: it spins (briefly: for tasks already running on other
    /// cores) but never blocks.
    @inlinable @_noLocks
    package func render(_ program: RenderProgram, frames: Int) {
        guard openBlock(program, frames: frames) else {
            program.render(frames: frames)
            return
        }
        _ = takePart(thread: 0, idleLimit: .max)
        while !blockIsDone { spinPause() }
        shutDoor()
    }

    /// `render` for a thread that may wait (offline, freewheeling): it runs
    /// `meanwhile` once the workers have started (file I/O that would
    /// otherwise hold up the next block), takes part, and once its share is
    /// done spins a little, then sleeps until the last task ends, so a
    /// worker that another program has pushed off its core costs this
    /// thread nothing while it waits.
    package func renderWaiting(_ program: RenderProgram, frames: Int, meanwhile: () -> Void = {}) {
        guard openBlock(program, frames: frames) else {
            meanwhile()
            program.render(frames: frames)
            return
        }
        meanwhile()
        _ = takePart(thread: 0, idleLimit: .max)
        var spins = 0
        while !blockIsDone && spins < Self.idleSpins {
            spinPause()
            spins += 1
        }
        if !blockIsDone {
            state.pointee.ownerWaiting.store(true, ordering: .sequentiallyConsistent)
            let taskCount = state.pointee.program.taskCount
            if state.pointee.completed.load(ordering: .sequentiallyConsistent) < taskCount {
                state.pointee.done.wait()
            } else if !state.pointee.ownerWaiting.exchange(false, ordering: .sequentiallyConsistent) {
                // The last task's thread saw the flag and signals: take it.
                state.pointee.done.wait()
            }
        }
        shutDoor()
    }

    /// Every task of the open block has finished.
    @inlinable
    package var blockIsDone: Bool {
        @_noLocks get {
            state.pointee.completed.load(ordering: .acquiring) >= state.pointee.program.taskCount
        }
    }

    /// Sets up the block and opens the door: false (nothing done) when the
    /// program is better rendered serially.
    @inlinable @_noLocks
    package func openBlock(_ program: RenderProgram, frames: Int) -> Bool {
        let taskCount = program.taskCount
        guard workerCount > 0, taskCount > 1, let layout = program.tasks else { return false }
        state.pointee.program = program
        state.pointee.frames = frames
        var roots = 0
        for index in 0..<taskCount {
            let predecessors = layout.tasks[index].predecessorCount
            layout.pending[index].store(predecessors, ordering: .relaxed)
            layout.taken[index].store(0, ordering: .relaxed)
            if predecessors == 0 { roots += 1 }
        }
        state.pointee.claimed.store(0, ordering: .relaxed)
        state.pointee.completed.store(0, ordering: .relaxed)
        let now = MonotonicClock.nanoseconds()
        let lastOpen = state.pointee.lastOpen.exchange(now, ordering: .relaxed)
        if lastOpen > 0 { state.pointee.period.store(now &- lastOpen, ordering: .relaxed) }
        let block = (state.pointee.door.load(ordering: .relaxed) &>> RenderWorkersState.blockShift) &+ 1
        state.pointee.door.store(block &<< RenderWorkersState.blockShift | RenderWorkersState.openBit, ordering: .releasing)
        wakeSleepers(roots - 1)
        return true
    }

    /// Shuts the door, then waits for workers still inside (they find
    /// nothing left and leave at once) before anything is reset.
    @inlinable @_noLocks
    package func shutDoor() {
        var door = state.pointee.door.load(ordering: .relaxed)
        while true {
            let (shut, found) = state.pointee.door.compareExchange(
                expected: door, desired: door & ~RenderWorkersState.openBit, ordering: .acquiringAndReleasing)
            if shut { break }
            door = found
        }
        while state.pointee.door.load(ordering: .acquiring) & RenderWorkersState.insideMask != 0 { spinPause() }
    }

    /// Claims and runs ready tasks until every task of the block is claimed
    /// (returns true) or none is ready for `idleLimit` spins (false).
    /// `thread`: 0 for the owner, 1… for the workers.
    @inlinable @_noLocks
    package func takePart(thread: Int, idleLimit: Int) -> Bool {
        let program = state.pointee.program, frames = state.pointee.frames
        guard let layout = program.tasks else { return true }
        let taskCount = layout.tasks.count
        var idle = 0
        while true {
            if state.pointee.claimed.load(ordering: .acquiring) >= taskCount { return true }
            guard let task = claim(thread: thread, layout) else {
                idle += 1
                if idle > idleLimit { return false }
                spinPause()
                continue
            }
            idle = 0
            program.renderTask(task, frames: frames)
            finish(task, layout)
            if thread > 0 { state.pointee.tasksRunByWorkers.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    /// A ready task nobody has taken, taken now, or nil. Each thread looks
    /// first at its own share (task k, k + threads, …), so while every
    /// thread keeps up, a task runs on the same thread block after block and
    /// its plugins' state stays in that core's cache; then at the others.
    @inlinable @_noLocks
    package func claim(thread: Int, _ layout: RenderTaskLayout) -> Int? {
        let taskCount = layout.tasks.count, threads = workerCount + 1
        var task = thread
        while task < taskCount {
            if take(task, layout) { return task }
            task += threads
        }
        for task in 0..<taskCount where task % threads != thread {
            if take(task, layout) { return task }
        }
        return nil
    }

    @inlinable @_noLocks
    package func take(_ task: Int, _ layout: RenderTaskLayout) -> Bool {
        guard layout.taken[task].load(ordering: .relaxed) == 0,
              layout.pending[task].load(ordering: .acquiring) == 0,
              layout.taken[task].exchange(1, ordering: .acquiringAndReleasing) == 0 else { return false }
        state.pointee.claimed.wrappingAdd(1, ordering: .relaxed)
        return true
    }

    /// Counts down the task's successors (releasing: whoever sees a count
    /// reach zero sees this task's output) and wakes workers for all but one
    /// of those it made ready (this thread takes that one).
    @inlinable @_noLocks
    package func finish(_ task: Int, _ layout: RenderTaskLayout) {
        let description = layout.tasks[task]
        var madeReady = 0
        let first = Int(description.firstSuccessor)
        for position in first..<(first + Int(description.successorCount)) {
            let successor = Int(layout.successors[position])
            if layout.pending[successor].wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                madeReady += 1
            }
        }
        // Sequentially consistent, as the owner's flag and check are: one of
        // the two sees the other (a lock-free handshake; an RMW costs the
        // same on x86 either way).
        let completed = state.pointee.completed.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        if madeReady > 1 { wakeSleepers(madeReady - 1) }
        // The last task wakes an owner that sleeps for it (offline only:
        // a realtime owner never sets the flag).
        if completed == layout.tasks.count
            && state.pointee.ownerWaiting.exchange(false, ordering: .sequentiallyConsistent) {
            state.pointee.done.signal()
        }
    }

    /// Signals up to `count` sleeping workers, each at most once.
    @inlinable @_noLocks
    package func wakeSleepers(_ count: Int) {
        var left = count
        while left > 0 {
            let sleeping = state.pointee.sleepers.load(ordering: .relaxed)
            if sleeping == 0 { return }
            let (taken, _) = state.pointee.sleepers.compareExchange(
                expected: sleeping, desired: sleeping - 1, ordering: .acquiringAndReleasing)
            if taken {
                state.pointee.wake.signal()
                left -= 1
            }
        }
    }

    @inlinable @_noLocks
    package func spinPause() {
        _unsafePerformance { fxhost_spin_pause() }
    }

    // MARK: A worker (the waiting half)

    /// A worker thread's body: sleeps until woken, joins open blocks and
    /// helps render them, spinning briefly between blocks before it sleeps
    /// again. Returns once `RenderWorkerPool` stops it.
    /// `thread`: the worker's number, from 1.
    func serve(thread: Int) {
        var lastBlock = -1
        var mayRejoin = true
        var spinUntil = 0
        sleep()
        while !state.pointee.stopping.load(ordering: .acquiring) {
            // A worker that was signalled may join the block it already left
            // (new tasks became ready); one that found every task claimed
            // waits for the next block.
            var joined: Int?
            var spins = 0
            while keepsSpinning(spins, until: spinUntil) {
                let door = state.pointee.door.load(ordering: .acquiring)
                let block = door &>> RenderWorkersState.blockShift
                if door & RenderWorkersState.openBit != 0 && (mayRejoin || block != lastBlock) {
                    if state.pointee.door.compareExchange(expected: door, desired: door + 1,
                                                          ordering: .acquiringAndReleasing).exchanged {
                        joined = block
                        break
                    }
                    continue
                }
                spinPause()
                spins += 1
            }
            guard let block = joined else {
                if mayRejoin {
                    sleep()
                    spinUntil = 0
                } else {
                    spinUntil = sleepUntilTheNextBlock()
                }
                mayRejoin = true
                continue
            }
            lastBlock = block
            let realtime = state.pointee.realtime
            if realtime { fxhost_realtime_enter() }
            let allClaimed = takePart(thread: thread, idleLimit: Self.idleSpins)
            if realtime { fxhost_realtime_exit() }
            state.pointee.door.wrappingSubtract(1, ordering: .releasing)
            if allClaimed {
                mayRejoin = false
            } else {
                sleep()
                spinUntil = 0
                mayRejoin = true
            }
        }
    }

    /// Whether a worker looking for a block to join spins on: the usual
    /// number of spins, and on until `deadline` when it has one (0: none),
    /// reading the clock every 64 spins.
    private func keepsSpinning(_ spins: Int, until deadline: Int) -> Bool {
        if spins < Self.idleSpins { return true }
        guard deadline > 0 else { return false }
        return spins & 63 != 0 || MonotonicClock.nanoseconds() < deadline
    }

    /// Sleeps until signalled.
    private func sleep() {
        state.pointee.sleepers.wrappingAdd(1, ordering: .acquiringAndReleasing)
        state.pointee.wake.wait()
    }

    /// Between blocks that come at a steady pace (JACK's cycles): sleeps
    /// until a little before the next is due, unless signalled first, and
    /// returns until when to spin for it (0: no longer than usual, after an
    /// ordinary sleep).
    private func sleepUntilTheNextBlock() -> Int {
        let period = state.pointee.period.load(ordering: .relaxed)
        let due = state.pointee.lastOpen.load(ordering: .relaxed) &+ period
        // Margins: an eighth of the period, at least 150 µs (timer slack and
        // wake-up latency on a busy machine).
        let margin = max(period / 8, 150_000)
        let now = MonotonicClock.nanoseconds()
        guard period > 0, period < 200_000_000, due - margin > now + 50_000 else {
            sleep()
            return 0
        }
        state.pointee.sleepers.wrappingAdd(1, ordering: .acquiringAndReleasing)
        if state.pointee.wake.wait(untilMonotonic: due - margin) { return 0 }
        // Timed out: take this worker off the sleepers, unless an owner
        // already counted it off to signal it (then take that signal).
        var sleeping = state.pointee.sleepers.load(ordering: .relaxed)
        while sleeping > 0 {
            let (taken, found) = state.pointee.sleepers.compareExchange(
                expected: sleeping, desired: sleeping - 1, ordering: .acquiringAndReleasing)
            if taken { return due + margin }
            sleeping = found
        }
        state.pointee.wake.wait()
        return 0
    }

    /// Makes every worker return from `serve` (after the block under way).
    func stop(workerThreads: Int) {
        state.pointee.stopping.store(true, ordering: .releasing)
        for _ in 0..<workerThreads { state.pointee.wake.signal() }
    }
}
