import Synchronization

/// A lock-free single-producer single-consumer ring of interleaved Float
/// frames.
///
/// The value is a handle: a few pointers to memory allocated (and touched) at
/// init, so copying it into a realtime context costs no reference counting.
/// Whoever created it calls `deallocate()` once both sides are done.
///
/// Positions are frame counts since the start that only grow (an `Int` lasts
/// millions of years at audio rates); `write - read` is the fill level. The
/// producer publishes with a releasing store of `write` after copying the
/// samples, the consumer with a releasing store of `read` after copying them
/// out; each side reads the other's position with an acquiring load.
public struct SPSCFloatRing: @unchecked Sendable {
    public let channels: Int
    /// Capacity in frames (exactly as asked).
    public let capacity: Int
    @usableFromInline let samples: UnsafeMutablePointer<Float>
    /// Two atomics, 64 bytes apart so the sides do not share a cache line.
    @usableFromInline let positions: UnsafeMutableRawPointer

    @usableFromInline static let positionStride = 64

    /// Allocates `capacity × channels` samples and writes every one, so no
    /// page fault waits for the realtime thread.
    public init(channels: Int, capacity: Int) {
        precondition(channels >= 1 && capacity >= 1, "a ring needs at least one channel and one frame")
        self.channels = channels
        self.capacity = capacity
        samples = .allocate(capacity: channels * capacity)
        samples.initialize(repeating: 0, count: channels * capacity)
        positions = .allocate(byteCount: 2 * Self.positionStride, alignment: Self.positionStride)
        positions.initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
        (positions + Self.positionStride).initializeMemory(as: Atomic<Int>.self, to: Atomic(0))
    }

    /// Frees the memory. Neither side may use the ring afterwards.
    public func deallocate() {
        writePosition.deinitialize(count: 1)
        readPosition.deinitialize(count: 1)
        positions.deallocate()
        samples.deallocate()
    }

    @inlinable var writePosition: UnsafeMutablePointer<Atomic<Int>> {
        positions.assumingMemoryBound(to: Atomic<Int>.self)
    }

    @inlinable var readPosition: UnsafeMutablePointer<Atomic<Int>> {
        (positions + Self.positionStride).assumingMemoryBound(to: Atomic<Int>.self)
    }

    // MARK: Producer side (realtime-safe)

    /// Frames the producer may write now.
    @inlinable
    public var writableFrames: Int {
        @_noLocks get {
            capacity - (writePosition.pointee.load(ordering: .relaxed) - readPosition.pointee.load(ordering: .acquiring))
        }
    }

    /// Copies `frames` frames, starting at frame `offset` of each planar
    /// source channel, into the ring — all or nothing. Returns false, writing
    /// nothing, when there is not room for all of them. Source channels beyond
    /// the ring's are ignored; missing ones are written as silence.
    @inlinable @_noLocks
    public func write(channels source: UnsafeBufferPointer<UnsafePointer<Float>>, offset: Int = 0, frames: Int) -> Bool {
        let write = writePosition.pointee.load(ordering: .relaxed)
        let read = readPosition.pointee.load(ordering: .acquiring)
        guard frames <= capacity - (write - read) else { return false }
        let start = write % capacity
        let first = min(frames, capacity - start)
        copyIn(source, from: offset, to: start, frames: first)
        copyIn(source, from: offset + first, to: 0, frames: frames - first)
        writePosition.pointee.store(write + frames, ordering: .releasing)
        return true
    }

    @inlinable @_noLocks
    func copyIn(_ source: UnsafeBufferPointer<UnsafePointer<Float>>, from offset: Int, to slot: Int, frames: Int) {
        guard frames > 0 else { return }
        Interleaving.interleave(source, from: offset, into: samples + slot * channels, channels: channels, frames: frames)
    }

    // MARK: Consumer side

    /// Frames the consumer may read now.
    @inlinable
    public var readableFrames: Int {
        @_noLocks get {
            writePosition.pointee.load(ordering: .acquiring) - readPosition.pointee.load(ordering: .relaxed)
        }
    }

    /// The readable frames that lie contiguously in storage (the rest, if
    /// any, starts at the beginning of storage): interleaved samples to use
    /// in place, then release with `consume(frames:)`.
    @inlinable @_noLocks
    public func readableRegion() -> UnsafeBufferPointer<Float> {
        let read = readPosition.pointee.load(ordering: .relaxed)
        let available = writePosition.pointee.load(ordering: .acquiring) - read
        let start = read % capacity
        let frames = min(available, capacity - start)
        return UnsafeBufferPointer(start: samples + start * channels, count: frames * channels)
    }

    /// Hands `frames` read frames back to the producer.
    @inlinable @_noLocks
    public func consume(frames: Int) {
        let read = readPosition.pointee.load(ordering: .relaxed)
        readPosition.pointee.store(read + frames, ordering: .releasing)
    }

    /// Copies up to `maxFrames` interleaved frames into `destination` and
    /// consumes them. Returns the number copied.
    @inlinable @_noLocks
    public func read(into destination: UnsafeMutablePointer<Float>, maxFrames: Int) -> Int {
        var copied = 0
        while copied < maxFrames {
            let region = readableRegion()
            let frames = min(region.count / channels, maxFrames - copied)
            guard frames > 0, let base = region.baseAddress else { break }
            let target = destination + copied * channels
            for index in 0..<frames * channels { target[index] = base[index] }
            consume(frames: frames)
            copied += frames
        }
        return copied
    }
}
