import CCoreShim

/// Called by: the thread that renders (the realtime thread live, the render
/// thread offline); made by the compiler on the control thread.
///
/// The realtime view of a plan: a flat list of ops over preallocated
/// buffers, in an order that renders it on one thread, and the same ops cut
/// into tasks that worker threads can share (`RenderWorkers`). Copying it
/// copies pointers; the `RenderPlan` that made it owns the memory and must
/// outlive every use.
package struct RenderProgram {
    package let ops: UnsafeBufferPointer<RenderOp>
    package let connections: UnsafeBufferPointer<PortConnection>
    package let maxBlockFrames: Int
    /// Empty or one task: nothing runs in parallel.
    package let tasks: RenderTaskLayout?
    /// Where the driver writes the block's musical position before each
    /// `render` (the plan's transport cell; see `TransportPosition`), which
    /// the plugins' time hooks read. Nil for programs made by hand.
    package let transport: UnsafeMutablePointer<TransportPosition>?

    package init(ops: UnsafeBufferPointer<RenderOp>, connections: UnsafeBufferPointer<PortConnection>,
                 maxBlockFrames: Int, tasks: RenderTaskLayout? = nil,
                 transport: UnsafeMutablePointer<TransportPosition>? = nil) {
        self.ops = ops
        self.connections = connections
        self.maxBlockFrames = maxBlockFrames
        self.tasks = tasks
        self.transport = transport
    }

    /// Tasks that may run at once: 0 or 1 for a serial program.
    @inlinable
    package var taskCount: Int {
        @_noLocks get { tasks?.tasks.count ?? 0 }
    }

    /// Connects every kernel's audio ports to the plan's buffers. Call on the
    /// thread that will render, before the first `render` of this program
    /// (again after another program used the same instances).
    @inlinable @_noLocks
    package func connectPorts() {
        for connection in connections {
            _unsafePerformance { connection.connect(connection.handle, connection.port, connection.data) }
        }
    }

    /// Renders one block of `frames` (1…maxBlockFrames). Realtime-safe as
    /// far as the plugins' `run()` is (trusted, like any host trusts it) and
    /// live: offline, a plugin's worker request runs its `work()` in place
    /// (`LV2Worker.schedule`), which may take its time; nothing offline is
    /// realtime.
    @inlinable @_noLocks
    package func render(frames: Int) {
        renderOps(from: 0, to: ops.count, frames: frames)
    }

    /// Runs task `index`'s ops for one block.
    @inlinable @_noLocks
    package func renderTask(_ index: Int, frames: Int) {
        guard let layout = tasks else { return }
        let task = layout.tasks[index]
        let first = Int(task.firstRange)
        for range in first..<(first + Int(task.rangeCount)) {
            renderOps(from: Int(layout.ranges[range].start), to: Int(layout.ranges[range].end), frames: frames)
        }
    }

    /// Runs ops `start..<end` for one block: a whole program, or one task of
    /// it (a task's skips never leave its range).
    @inlinable @_noLocks
    package func renderOps(from start: Int, to end: Int, frames: Int) {
        var index = start
        while index < end {
            switch ops[index] {
            case .clear(let buffer):
                for frame in 0..<frames { buffer[frame] = 0 }
            case .copy(let source, let destination):
                for frame in 0..<frames { destination[frame] = source[frame] }
            case .copyScaled(let source, let destination, let gain):
                let factor = gain.pointee
                for frame in 0..<frames { destination[frame] = source[frame] * factor }
            case .add(let source, let destination):
                for frame in 0..<frames { destination[frame] += source[frame] }
            case .addScaled(let source, let destination, let gain):
                let factor = gain.pointee
                for frame in 0..<frames { destination[frame] += source[frame] * factor }
            case .reset(let reset):
                _unsafePerformance { reset.destination.copyMemory(from: reset.source, byteCount: reset.byteCount) }
            case .run(let handle, let function, let node):
                // The culprit cell: one store before and after (see CrashReport).
                _unsafePerformance {
                    fxhost_culprit_enter(node, FXHOST_CALL_RUN)
                    function(handle, UInt32(frames))
                    fxhost_culprit_leave()
                }
            case .hook(let hook, let node, let call):
                _unsafePerformance {
                    fxhost_culprit_enter(node, call)
                    hook.function(hook.context)
                    fxhost_culprit_leave()
                }
            case .skipIfSet(let flag, let skipped):
                if flag.pointee != 0 { index += skipped }
            case .skipIfClear(let flag, let skipped):
                if flag.pointee == 0 { index += skipped }
            case .enableUnlessSet(let flag, let control):
                control.pointee = flag.pointee != 0 ? 0 : 1
            case .delay(let line, let buffer):
                line.pointee.process(buffer, frames: frames)
            case .midiClear(let list):
                list.pointee.removeAll()
            case .midiMerge(let source, let destination):
                destination.pointee.merge(source)
            case .midiPort(let port, let list, let node):
                _unsafePerformance {
                    fxhost_culprit_enter(node, FXHOST_CALL_EVENTS)
                    port.function(port.context, UnsafeMutableRawPointer(list), UInt32(frames))
                    fxhost_culprit_leave()
                }
            }
            index += 1
        }
    }
}
