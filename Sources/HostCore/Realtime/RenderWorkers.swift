import CShim
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
/// briefly before it sleeps. Tasks are claimed from a ready list filled in
/// the order they became ready (see `RenderTaskLayout`), so no task runs
/// twice and none before its predecessors; the results are the serial
/// program's bits whatever thread runs what (see `TaskPartition`).
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
        let taskCount = program.taskCount
        guard workerCount > 0, taskCount > 1, let layout = program.tasks else {
            program.render(frames: frames)
            return
        }
        state.pointee.program = program
        state.pointee.frames = frames
        for index in 0..<taskCount {
            layout.pending[index].store(layout.tasks[index].predecessorCount, ordering: .relaxed)
            layout.ready[index].store(0, ordering: .relaxed)
        }
        state.pointee.claimed.store(0, ordering: .relaxed)
        state.pointee.pushed.store(0, ordering: .relaxed)
        state.pointee.completed.store(0, ordering: .relaxed)
        var roots = 0
        for index in 0..<taskCount where layout.tasks[index].predecessorCount == 0 {
            push(index, layout)
            roots += 1
        }
        let block = (state.pointee.door.load(ordering: .relaxed) &>> RenderWorkersState.blockShift) &+ 1
        state.pointee.door.store(block &<< RenderWorkersState.blockShift | RenderWorkersState.openBit, ordering: .releasing)
        wakeSleepers(roots - 1)

        _ = takePart(idleLimit: .max, isOwner: true)
        while state.pointee.completed.load(ordering: .acquiring) < taskCount { spinPause() }
        // Shut the door, then wait for workers still inside (they find
        // nothing left and leave) before anything is reset.
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
    @inlinable @_noLocks
    package func takePart(idleLimit: Int, isOwner: Bool) -> Bool {
        let program = state.pointee.program, frames = state.pointee.frames
        guard let layout = program.tasks else { return true }
        let taskCount = layout.tasks.count
        var idle = 0
        while true {
            let head = state.pointee.claimed.load(ordering: .acquiring)
            if head >= taskCount { return true }
            let slot = layout.ready[head].load(ordering: .acquiring)
            if slot == 0 {
                idle += 1
                if idle > idleLimit { return false }
                spinPause()
                continue
            }
            let (won, _) = state.pointee.claimed.compareExchange(
                expected: head, desired: head + 1, ordering: .acquiringAndReleasing)
            guard won else { continue }
            idle = 0
            let task = Int(slot) - 1
            program.renderTask(task, frames: frames)
            finish(task, layout)
            if !isOwner { state.pointee.tasksRunByWorkers.wrappingAdd(1, ordering: .relaxed) }
        }
    }

    /// Counts down the task's successors, makes ready those with nothing
    /// left to wait for, and wakes workers for all but one of them (this
    /// thread takes that one).
    @inlinable @_noLocks
    package func finish(_ task: Int, _ layout: RenderTaskLayout) {
        let description = layout.tasks[task]
        var madeReady = 0
        let first = Int(description.firstSuccessor)
        for position in first..<(first + Int(description.successorCount)) {
            let successor = Int(layout.successors[position])
            if layout.pending[successor].wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 {
                push(successor, layout)
                madeReady += 1
            }
        }
        state.pointee.completed.wrappingAdd(1, ordering: .releasing)
        if madeReady > 1 { wakeSleepers(madeReady - 1) }
    }

    @inlinable @_noLocks
    package func push(_ task: Int, _ layout: RenderTaskLayout) {
        let slot = state.pointee.pushed.wrappingAdd(1, ordering: .relaxed).oldValue
        layout.ready[slot].store(Int32(task + 1), ordering: .releasing)
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
    func serve() {
        var lastBlock = -1
        var mayRejoin = true
        sleep()
        while !state.pointee.stopping.load(ordering: .acquiring) {
            // A worker that was signalled may join the block it already left
            // (new tasks became ready); one that found every task claimed
            // waits for the next block.
            var joined: Int?
            for _ in 0..<Self.idleSpins {
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
            }
            guard let block = joined else {
                sleep()
                mayRejoin = true
                continue
            }
            lastBlock = block
            let realtime = state.pointee.realtime
            if realtime { fxhost_realtime_enter() }
            let allClaimed = takePart(idleLimit: Self.idleSpins, isOwner: false)
            if realtime { fxhost_realtime_exit() }
            state.pointee.door.wrappingSubtract(1, ordering: .releasing)
            if allClaimed {
                mayRejoin = false
            } else {
                sleep()
                mayRejoin = true
            }
        }
    }

    private func sleep() {
        state.pointee.sleepers.wrappingAdd(1, ordering: .acquiringAndReleasing)
        state.pointee.wake.wait()
    }

    /// Makes every worker return from `serve` (after the block under way).
    func stop(workerThreads: Int) {
        state.pointee.stopping.store(true, ordering: .releasing)
        for _ in 0..<workerThreads { state.pointee.wake.signal() }
    }
}
