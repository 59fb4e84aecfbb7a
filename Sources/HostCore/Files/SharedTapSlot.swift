import Glibc
import Synchronization

/// One slot of a `SharedTapRegion`: its state, the ring's two positions,
/// the take's `TapCounters`, the take as the engine published it (shape,
/// file, whether it continues a take the supervisor holds), a failure's
/// reason from the supervisor, then the ring's storage.
///
/// States, each set by one side: `free` → `laying` (an engine claimed it)
/// → `ready` (engine: the file exists, write it) → `closing` (engine: no
/// more pushes) → `closed` (supervisor: all written, the file closed) →
/// `free` (engine). When an engine dies, the supervisor frees its slots.
package struct SharedTapSlot: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let dataBytes: Int
    /// Its place in the region.
    package let index: Int

    static let free = 0, laying = 1, ready = 2, closing = 3, closed = 4
    static let maximumPathBytes = 4096
    private static let maximumFailureBytes = 512
    private static let positionsOffset = 64
    private static let countersOffset = 256
    private static let shapeOffset = 384
    private static let pathOffset = 512
    private static let failureOffset = pathOffset + maximumPathBytes

    init(base: UnsafeMutableRawPointer, dataBytes: Int, index: Int) {
        self.base = base
        self.dataBytes = dataBytes
        self.index = index
    }

    var state: UnsafeMutablePointer<Atomic<Int>> { base.assumingMemoryBound(to: Atomic<Int>.self) }
    private var positions: UnsafeMutableRawPointer { base + Self.positionsOffset }
    private var storage: UnsafeMutableRawPointer { base + SharedTapRegion.slotHeaderBytes }
    /// channels, ring frames, rate, path bytes, continuing (0/1),
    /// expected frame time (-1: none), device, inode, failure bytes, generation.
    private var shape: UnsafeMutablePointer<Int> { (base + Self.shapeOffset).assumingMemoryBound(to: Int.self) }

    /// True while a take holds it.
    package var isClaimed: Bool { state.pointee.load(ordering: .acquiring) != Self.free }
    package var isReady: Bool { state.pointee.load(ordering: .acquiring) == Self.ready }
    package var isClosing: Bool { state.pointee.load(ordering: .acquiring) == Self.closing }
    package var isClosed: Bool { state.pointee.load(ordering: .acquiring) == Self.closed }

    /// Hands it back (the engine read a closed take's counters, or the
    /// supervisor frees a dead engine's slots).
    package func release() { state.pointee.store(Self.free, ordering: .releasing) }

    func lay(channels: Int, sampleRate: Int, frames: Int) {
        shape[0] = channels
        shape[1] = frames
        shape[2] = sampleRate
        for field in 3..<9 { shape[field] = 0 }
        _ = TapCounters(cells: base + Self.countersOffset, reset: true)
        _ = SPSCFloatRing(channels: channels, capacity: frames, storage: storage, positions: positions, reset: true)
    }

    /// The engine's side, once the take's file exists: says which file it
    /// is (new and empty, `identity` its device and inode; or, with
    /// `continuing`, the take the supervisor holds open from the engine
    /// before), and hands it to the supervisor's writer. False (the slot
    /// left as it was) when the path is too long.
    package func publish(path: String, identity: (device: UInt64, inode: UInt64)?, continuing: Bool,
                         expectedFrameTime: Int?) -> Bool {
        let name = Array(path.utf8)
        guard !name.isEmpty, name.count <= Self.maximumPathBytes else { return false }
        name.withUnsafeBytes { (base + Self.pathOffset).copyMemory(from: $0.baseAddress!, byteCount: name.count) }
        shape[3] = name.count
        shape[4] = continuing ? 1 : 0
        shape[5] = expectedFrameTime.map { $0 & 0xFFFF_FFFF } ?? -1
        shape[6] = Int(bitPattern: UInt(identity?.device ?? 0))
        shape[7] = Int(bitPattern: UInt(identity?.inode ?? 0))
        shape[8] = 0
        shape[9] = shape[9] &+ 1
        state.pointee.store(Self.ready, ordering: .releasing)
        return true
    }

    /// Counts the takes published in this slot: the supervisor tells a new
    /// take from the one it is writing though the slot's state was
    /// scribbled on in between.
    package var generation: Int { shape[9] }

    /// The engine's side: nothing more will be pushed; the supervisor writes the rest and closes the file.
    package func requestClose() {
        _ = state.pointee.compareExchange(expected: Self.ready, desired: Self.closing, ordering: .acquiringAndReleasing)
    }

    /// The supervisor's side: every frame written, the file closed.
    package func markClosed() { state.pointee.store(Self.closed, ordering: .releasing) }

    /// The take as its engine published it, nil when it does not fit the
    /// slot (memory scribbled on). Read by the supervisor as hostile: bounded.
    package var published: (channels: Int, frames: Int, sampleRate: Int, path: String, continuing: Bool,
                             expectedFrameTime: Int?, identity: (device: UInt64, inode: UInt64))? {
        let channels = shape[0], frames = shape[1], sampleRate = shape[2], length = shape[3]
        guard (1...4096).contains(channels), frames >= 1, frames <= dataBytes / (channels * MemoryLayout<Float>.stride),
              (1...1_536_000).contains(sampleRate), (1...Self.maximumPathBytes).contains(length),
              shape[4] == 0 || shape[4] == 1, (-1...0xFFFF_FFFF).contains(shape[5]) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: base + Self.pathOffset, count: length)
        return (channels, frames, sampleRate, String(decoding: bytes, as: UTF8.self), shape[4] == 1,
                shape[5] >= 0 ? shape[5] : nil, (UInt64(UInt(bitPattern: shape[6])), UInt64(UInt(bitPattern: shape[7]))))
    }

    /// The ring and counters laid at the claim. The ring's shape is read
    /// anew: the supervisor makes its own from `published` instead.
    package var ring: SPSCFloatRing {
        SPSCFloatRing(channels: shape[0], capacity: shape[1], storage: storage, positions: positions, reset: false)
    }

    /// A ring of a shape the caller checked (`published`).
    package func ring(channels: Int, frames: Int) -> SPSCFloatRing {
        SPSCFloatRing(channels: channels, capacity: frames, storage: storage, positions: positions, reset: false)
    }

    package var counters: TapCounters { TapCounters(cells: base + Self.countersOffset, reset: false) }

    /// Why the supervisor's writer ended the take (set before `failed`), bounded.
    package var failureReason: String? {
        get {
            let length = shape[8]
            guard (1...Self.maximumFailureBytes).contains(length) else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: base + Self.failureOffset, count: length), as: UTF8.self)
        }
        nonmutating set {
            let bytes = Array((newValue ?? "").utf8.prefix(Self.maximumFailureBytes))
            bytes.withUnsafeBytes { if let from = $0.baseAddress { (base + Self.failureOffset).copyMemory(from: from, byteCount: bytes.count) } }
            shape[8] = bytes.count
        }
    }
}
