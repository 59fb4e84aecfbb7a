import HostCore

/// Called by: one control thread pushes (serialise producers yourself); the
/// realtime thread applies, at the start of each cycle.
///
/// A lock-free single-producer single-consumer queue of `LiveCommand`s with a
/// fixed capacity: an `SPSCRing` whose slot is one command.
package struct LiveCommandQueue: ~Copyable {
    private let ring: SPSCRing

    /// Room for `capacity` commands, rounded up to a power of two. The slots
    /// are allocated and written here, off the realtime thread.
    package init(capacity: Int) {
        var size = 1
        while size < max(capacity, 1) { size <<= 1 }
        // LiveCommand is trivial, so the ring's zeroed bytes are ready to overwrite.
        ring = SPSCRing(capacity: size, slotSize: MemoryLayout<LiveCommand>.stride,
                        alignment: max(MemoryLayout<LiveCommand>.alignment, 16))
    }

    deinit {
        ring.deallocate()
    }

    package var capacity: Int { ring.capacity }

    /// Producer side. False when the queue is full (the command is not queued).
    @_noLocks
    package func push(_ command: LiveCommand) -> Bool {
        guard let span = ring.reserve(1) else { return false }
        span.first.initializeMemory(as: LiveCommand.self, to: command)
        ring.publish(1)
        return true
    }

    /// Producer side, off the realtime thread: `commands` published at
    /// once, so the consumer applies all of them in one `applyPending` or
    /// none. False when there is no room for all (none is queued).
    package func push(contentsOf commands: [LiveCommand]) -> Bool {
        guard !commands.isEmpty else { return true }
        guard let span = ring.reserve(commands.count) else { return false }
        for (index, command) in commands.enumerated() {
            let slot = index < span.firstCount ? span.first + index * ring.slotSize
                : span.second + (index - span.firstCount) * ring.slotSize
            slot.initializeMemory(as: LiveCommand.self, to: command)
        }
        ring.publish(commands.count)
        return true
    }

    /// Consumer side: applies every command pushed before this call, in
    /// order, and returns how many. `motions`: the glides and ramps a store ends.
    @_noLocks
    package func applyPending(_ motions: ValueMotions) -> Int {
        let span = ring.readable()
        apply(span.first, count: span.firstCount, motions)
        apply(span.second, count: span.secondCount, motions)
        ring.release(span.count)
        return span.count
    }

    @_noLocks
    private func apply(_ slots: UnsafeMutableRawPointer, count: Int, _ motions: ValueMotions) {
        let commands = slots.assumingMemoryBound(to: LiveCommand.self)
        for index in 0..<count { commands[index].apply(motions) }
    }
}
