import Synchronization

/// Called by: one producer thread and one consumer thread per ring; either may
/// be the realtime thread (the tap ring's producer, the file feed's and the
/// command queue's consumer, both ends of the LV2 worker's rings).
///
/// The host's one single-producer single-consumer ring: `capacity` slots of
/// `slotSize` bytes, allocated and written at init (so no page fault waits for
/// the realtime thread), and two positions. `SPSCFloatRing` (tap and file-feed
/// frames), `LiveCommandQueue` (control commands) and the LV2 worker's
/// `ByteRing` (messages) are views of it that decide what a slot holds.
///
/// Positions count slots since the start and only grow (an `Int` lasts
/// millions of years at audio rates); `write - read` is the fill level. The
/// producer fills slots, then publishes them with a releasing store of
/// `write`; the consumer reads them, then hands them back with a releasing
/// store of `read`; each side reads the other's position with an acquiring
/// load, so a side sees the slots' contents whenever it sees the position.
///
/// Ours, not libjack's `jack_ringbuffer`: the 1.9.21 in Debian 12 lacks the
/// memory fences added in 1.9.22 (jack2 pull request #886), and the ring is
/// also used where no JACK library is linked (offline renders).
///
/// The value is a handle: two pointers, so copying it into a realtime context
/// costs no reference counting. Whoever created it calls `deallocate()` once
/// both sides are done. A ring laid over memory it does not own (a tap's
/// slot in a `SharedTapRegion`, shared with another process) frees nothing:
/// its positions are plain 64-bit atomics, lock-free and so valid across
/// processes that map the same pages.
@usableFromInline
package struct SPSCRing: @unchecked Sendable {
    /// Capacity in slots (exactly as asked).
    @usableFromInline package let capacity: Int
    @usableFromInline package let slotSize: Int
    @usableFromInline let storage: UnsafeMutableRawPointer
    /// Two atomics, 64 bytes apart so the sides do not share a cache line.
    @usableFromInline let positions: UnsafeMutableRawPointer
    /// False for a ring over memory someone else provided and frees.
    @usableFromInline let ownsMemory: Bool

    @usableFromInline package static let positionStride = 64

    /// Off the realtime thread: allocates and zeroes `capacity × slotSize` bytes.
    @usableFromInline
    package init(capacity: Int, slotSize: Int, alignment: Int = 16) {
        precondition(capacity >= 1 && slotSize >= 1, "a ring needs at least one slot of at least one byte")
        self.capacity = capacity
        self.slotSize = slotSize
        storage = .allocate(byteCount: capacity * slotSize, alignment: alignment)
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: capacity * slotSize)
        positions = .allocate(byteCount: 2 * Self.positionStride, alignment: Self.positionStride)
        positions.initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
        (positions + Self.positionStride).initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
        ownsMemory = true
    }

    /// Off the realtime thread: a ring over `storage` (`capacity × slotSize`
    /// bytes) and `positions` (`2 × positionStride` bytes, 64-byte aligned),
    /// which the caller provides, keeps alive and frees. With `reset` both
    /// positions start at 0 and the storage is zeroed (touched, so no page
    /// fault waits for the realtime thread); without, it reads them as they
    /// are (another process's ring, looked at after it ended).
    package init(capacity: Int, slotSize: Int, storage: UnsafeMutableRawPointer,
                 positions: UnsafeMutableRawPointer, reset: Bool) {
        precondition(capacity >= 1 && slotSize >= 1, "a ring needs at least one slot of at least one byte")
        self.capacity = capacity
        self.slotSize = slotSize
        self.storage = storage
        self.positions = positions
        ownsMemory = false
        if reset {
            storage.initializeMemory(as: UInt8.self, repeating: 0, count: capacity * slotSize)
            positions.initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
            (positions + Self.positionStride).initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
        }
    }

    /// Frees the memory. Neither side may use the ring afterwards.
    @usableFromInline
    package func deallocate() {
        guard ownsMemory else { return }
        writePosition.deinitialize(count: 1)
        readPosition.deinitialize(count: 1)
        positions.deallocate()
        storage.deallocate()
    }

    @inlinable var writePosition: UnsafeMutablePointer<Atomic<Int>> {
        positions.assumingMemoryBound(to: Atomic<Int>.self)
    }

    @inlinable var readPosition: UnsafeMutablePointer<Atomic<Int>> {
        (positions + Self.positionStride).assumingMemoryBound(to: Atomic<Int>.self)
    }

    /// `count` slots from `position`, in at most two runs: up to the end of
    /// storage, then on from its start.
    @inlinable @_noLocks
    package func span(from position: Int, count: Int) -> SPSCRingSpan {
        let start = position % capacity
        let first = min(count, capacity - start)
        return SPSCRingSpan(first: storage + start * slotSize, firstCount: first,
                            second: storage, secondCount: count - first)
    }

    /// Both positions as they stand (slots since the start): for whoever
    /// takes over the consumer's part after it ended.
    package var positionsNow: (read: Int, write: Int) {
        (readPosition.pointee.load(ordering: .acquiring), writePosition.pointee.load(ordering: .acquiring))
    }

    // MARK: Producer side (realtime-safe)

    /// Slots the producer may fill now.
    @inlinable
    package var writableCount: Int {
        @_noLocks get {
            capacity - (writePosition.pointee.load(ordering: .relaxed) - readPosition.pointee.load(ordering: .acquiring))
        }
    }

    /// The next `count` free slots to fill, or nil (nothing reserved) when
    /// fewer are free. Fill them, then `publish(count)`.
    @inlinable @_noLocks
    package func reserve(_ count: Int) -> SPSCRingSpan? {
        let write = writePosition.pointee.load(ordering: .relaxed)
        let read = readPosition.pointee.load(ordering: .acquiring)
        guard count <= capacity - (write - read) else { return nil }
        return span(from: write, count: count)
    }

    /// Hands `count` filled slots to the consumer.
    @inlinable @_noLocks
    package func publish(_ count: Int) {
        let write = writePosition.pointee.load(ordering: .relaxed)
        writePosition.pointee.store(write + count, ordering: .releasing)
    }

    // MARK: Consumer side (realtime-safe)

    /// Slots the consumer may read now.
    @inlinable
    package var readableCount: Int {
        @_noLocks get {
            writePosition.pointee.load(ordering: .acquiring) - readPosition.pointee.load(ordering: .relaxed)
        }
    }

    /// Every slot published so far and not yet released, oldest first.
    @inlinable @_noLocks
    package func readable() -> SPSCRingSpan {
        let read = readPosition.pointee.load(ordering: .relaxed)
        let write = writePosition.pointee.load(ordering: .acquiring)
        return span(from: read, count: write - read)
    }

    /// Hands `count` read slots back to the producer.
    @inlinable @_noLocks
    package func release(_ count: Int) {
        let read = readPosition.pointee.load(ordering: .relaxed)
        readPosition.pointee.store(read + count, ordering: .releasing)
    }
}

/// Consecutive slots of an `SPSCRing`: `firstCount` at `first`, then
/// `secondCount` at `second` (the start of storage) when they wrap.
@usableFromInline
package struct SPSCRingSpan {
    @usableFromInline package let first: UnsafeMutableRawPointer
    @usableFromInline package let firstCount: Int
    @usableFromInline package let second: UnsafeMutableRawPointer
    @usableFromInline package let secondCount: Int

    @inlinable
    init(first: UnsafeMutableRawPointer, firstCount: Int, second: UnsafeMutableRawPointer, secondCount: Int) {
        self.first = first
        self.firstCount = firstCount
        self.second = second
        self.secondCount = secondCount
    }

    @inlinable package var count: Int { firstCount + secondCount }
}
