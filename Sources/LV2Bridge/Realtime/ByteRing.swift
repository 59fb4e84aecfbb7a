import Foundation
import Synchronization

/// A single-producer single-consumer ring of length-prefixed messages, for
/// the LV2 worker: the realtime thread writes requests and reads responses
/// without locks or allocation. A plain struct of pointers, so the realtime
/// side copies no references; `deallocate()` frees it.
struct ByteRing {
    let storage: UnsafeMutablePointer<UInt8>
    /// A power of two.
    let capacity: Int
    /// Bytes ever written (producer-owned) and read (consumer-owned).
    let written: UnsafeMutablePointer<Atomic<Int>>
    let read: UnsafeMutablePointer<Atomic<Int>>

    init(capacity requested: Int) {
        var size = 64
        while size < requested { size <<= 1 }
        capacity = size
        storage = .allocate(capacity: size)
        storage.initialize(repeating: 0, count: size)
        written = .allocate(capacity: 1)
        written.initialize(to: Atomic(0))
        read = .allocate(capacity: 1)
        read.initialize(to: Atomic(0))
    }

    func deallocate() {
        storage.deallocate()
        written.deinitialize(count: 1)
        written.deallocate()
        read.deinitialize(count: 1)
        read.deallocate()
    }

    /// Appends one message; false when it does not fit (the message is dropped).
    @_noLocks
    func write(_ data: UnsafeRawPointer?, size: UInt32) -> Bool {
        let head = written.pointee.load(ordering: .relaxed)
        let tail = read.pointee.load(ordering: .acquiring)
        let needed = 4 + Int(size)
        guard capacity - (head - tail) >= needed else { return false }
        var length = size
        withUnsafeBytes(of: &length) { copyIn($0.baseAddress!, count: 4, at: head) }
        if let data, size > 0 { copyIn(data, count: Int(size), at: head + 4) }
        written.pointee.store(head + needed, ordering: .releasing)
        return true
    }

    /// Takes the oldest message into `buffer` (of `capacity` bytes) and
    /// returns its size, or nil when the ring is empty.
    @_noLocks
    func take(into buffer: UnsafeMutableRawPointer) -> UInt32? {
        let tail = read.pointee.load(ordering: .relaxed)
        let head = written.pointee.load(ordering: .acquiring)
        guard head - tail >= 4 else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { copyOut($0.baseAddress!, count: 4, at: tail) }
        copyOut(buffer, count: Int(length), at: tail + 4)
        read.pointee.store(tail + 4 + Int(length), ordering: .releasing)
        return length
    }

    @_noLocks
    private func copyIn(_ source: UnsafeRawPointer, count: Int, at position: Int) {
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        for offset in 0..<count { storage[(position + offset) & (capacity - 1)] = bytes[offset] }
    }

    @_noLocks
    private func copyOut(_ destination: UnsafeMutableRawPointer, count: Int, at position: Int) {
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        for offset in 0..<count { bytes[offset] = storage[(position + offset) & (capacity - 1)] }
    }
}
