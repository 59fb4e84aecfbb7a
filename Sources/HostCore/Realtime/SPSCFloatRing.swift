/// Called by: a tap's producer (the realtime thread, or the offline render
/// thread) and its writer thread; a file feed's disk thread and the realtime
/// thread.
///
/// A lock-free single-producer single-consumer ring of interleaved Float
/// frames: an `SPSCRing` whose slot is one frame of `channels` samples.
///
/// The value is a handle: a few pointers to memory allocated (and touched) at
/// init, so copying it into a realtime context costs no reference counting.
/// Whoever created it calls `deallocate()` once both sides are done.
package struct SPSCFloatRing: @unchecked Sendable {
    package let channels: Int
    /// Capacity in frames (exactly as asked).
    package let capacity: Int
    @usableFromInline let ring: SPSCRing

    /// Allocates `capacity × channels` samples and writes every one, so no
    /// page fault waits for the realtime thread.
    package init(channels: Int, capacity: Int) {
        precondition(channels >= 1 && capacity >= 1, "a ring needs at least one channel and one frame")
        self.channels = channels
        self.capacity = capacity
        ring = SPSCRing(capacity: capacity, slotSize: channels * MemoryLayout<Float>.stride)
    }

    /// A ring over memory the caller provides (see `SPSCRing.init(capacity:slotSize:storage:positions:reset:)`).
    package init(channels: Int, capacity: Int, storage: UnsafeMutableRawPointer,
                 positions: UnsafeMutableRawPointer, reset: Bool) {
        precondition(channels >= 1 && capacity >= 1, "a ring needs at least one channel and one frame")
        self.channels = channels
        self.capacity = capacity
        ring = SPSCRing(capacity: capacity, slotSize: channels * MemoryLayout<Float>.stride,
                        storage: storage, positions: positions, reset: reset)
    }

    /// Frees the memory (none, for a ring over memory it was given).
    /// Neither side may use the ring afterwards.
    package func deallocate() { ring.deallocate() }

    /// Read and write positions as they stand, in frames since the start.
    package var positionsNow: (read: Int, write: Int) { ring.positionsNow }

    /// The frames from `position` (since the start) on, `count` of them, in
    /// at most two interleaved runs: for whoever takes over the consumer's
    /// part after it ended. The caller keeps within what was written and
    /// not yet overwritten.
    package func frames(from position: Int, count: Int) -> [UnsafeBufferPointer<Float>] {
        let span = ring.span(from: position, count: count)
        return [UnsafeBufferPointer(start: span.first.assumingMemoryBound(to: Float.self), count: span.firstCount * channels),
                UnsafeBufferPointer(start: span.second.assumingMemoryBound(to: Float.self), count: span.secondCount * channels)]
    }

    // MARK: Producer side (realtime-safe)

    /// Frames the producer may write now.
    @inlinable
    package var writableFrames: Int {
        @_noLocks get { ring.writableCount }
    }

    /// Copies `frames` frames, starting at frame `offset` of each planar
    /// source channel, into the ring — all or nothing. Returns false, writing
    /// nothing, when there is not room for all of them. Source channels beyond
    /// the ring's are ignored; missing ones are written as silence.
    @inlinable @_noLocks
    package func write(channels source: UnsafeBufferPointer<UnsafePointer<Float>>, offset: Int = 0, frames: Int) -> Bool {
        guard let span = ring.reserve(frames) else { return false }
        Interleaving.interleave(source, from: offset, into: span.first.assumingMemoryBound(to: Float.self),
                                channels: channels, frames: span.firstCount)
        Interleaving.interleave(source, from: offset + span.firstCount,
                                into: span.second.assumingMemoryBound(to: Float.self),
                                channels: channels, frames: span.secondCount)
        ring.publish(frames)
        return true
    }

    // MARK: Consumer side (realtime-safe)

    /// Frames the consumer may read now.
    @inlinable
    package var readableFrames: Int {
        @_noLocks get { ring.readableCount }
    }

    /// The readable frames that lie contiguously in storage (the rest, if
    /// any, starts at the beginning of storage): interleaved samples to use
    /// in place, then release with `consume(frames:)`.
    @inlinable @_noLocks
    package func readableRegion() -> UnsafeBufferPointer<Float> {
        let span = ring.readable()
        return UnsafeBufferPointer(start: span.first.assumingMemoryBound(to: Float.self),
                                   count: span.firstCount * channels)
    }

    /// Hands `frames` read frames back to the producer.
    @inlinable @_noLocks
    package func consume(frames: Int) {
        ring.release(frames)
    }
}
