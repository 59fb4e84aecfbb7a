import HostCore

/// Called by: the realtime thread (writes requests, takes responses) and the
/// LV2 worker thread (takes requests, writes responses); offline, both ends
/// on the rendering thread.
///
/// A single-producer single-consumer ring of length-prefixed messages, for
/// the LV2 worker: an `SPSCRing` of bytes, each message a 4-byte length and
/// its payload, published whole. A plain struct of pointers, so the realtime
/// side copies no references; `deallocate()` frees it.
struct ByteRing {
    let ring: SPSCRing

    /// Room for `requested` bytes, rounded up to a power of two (at least 64).
    init(capacity requested: Int) {
        var size = 64
        while size < requested { size <<= 1 }
        ring = SPSCRing(capacity: size, slotSize: 1)
    }

    var capacity: Int { ring.capacity }

    func deallocate() { ring.deallocate() }

    /// Appends one message; false when it does not fit (the message is dropped).
    @_noLocks
    func write(_ data: UnsafeRawPointer?, size: UInt32) -> Bool {
        let needed = 4 + Int(size)
        guard let span = ring.reserve(needed) else { return false }
        var length = size
        withUnsafeBytes(of: &length) { Self.copy(from: $0.baseAddress!, count: 4, into: span, at: 0) }
        if let data, size > 0 { Self.copy(from: data, count: Int(size), into: span, at: 4) }
        ring.publish(needed)
        return true
    }

    /// Takes the oldest message into `buffer` (of `capacity` bytes) and
    /// returns its size, or nil when the ring is empty.
    @_noLocks
    func take(into buffer: UnsafeMutableRawPointer) -> UInt32? {
        let span = ring.readable()
        guard span.count >= 4 else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { Self.copy(from: span, at: 0, count: 4, into: $0.baseAddress!) }
        Self.copy(from: span, at: 4, count: Int(length), into: buffer)
        ring.release(4 + Int(length))
        return length
    }

    /// The size of the oldest message without taking it, or nil when the
    /// ring is empty (a consumer that may not have room for it yet).
    @_noLocks
    func nextSize() -> UInt32? {
        let span = ring.readable()
        guard span.count >= 4 else { return nil }
        var length: UInt32 = 0
        withUnsafeMutableBytes(of: &length) { Self.copy(from: span, at: 0, count: 4, into: $0.baseAddress!) }
        return length
    }

    /// Copies `count` bytes into the span from byte `offset` on.
    @_noLocks
    private static func copy(from source: UnsafeRawPointer, count: Int, into span: SPSCRingSpan, at offset: Int) {
        let bytes = source.assumingMemoryBound(to: UInt8.self)
        for index in 0..<count { byte(span, offset + index).pointee = bytes[index] }
    }

    /// Copies `count` bytes out of the span from byte `offset` on.
    @_noLocks
    private static func copy(from span: SPSCRingSpan, at offset: Int, count: Int, into destination: UnsafeMutableRawPointer) {
        let bytes = destination.assumingMemoryBound(to: UInt8.self)
        for index in 0..<count { bytes[index] = byte(span, offset + index).pointee }
    }

    /// Byte `index` of the span, across its wrap.
    @_noLocks
    private static func byte(_ span: SPSCRingSpan, _ index: Int) -> UnsafeMutablePointer<UInt8> {
        let base = index < span.firstCount ? span.first + index : span.second + (index - span.firstCount)
        return base.assumingMemoryBound(to: UInt8.self)
    }
}
