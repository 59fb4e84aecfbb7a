import CCoreShim
import Glibc
import Synchronization

/// Shared memory for a supervised run's taps: a memfd the supervisor makes
/// once and hands every engine it starts (an inherited descriptor), with a
/// table of `slotCount` slots. An engine's `TapRecorder` claims a slot for
/// each take and lays its ring, counters and file name there, so the frames
/// its realtime thread pushed outlive the engine: when it dies, the
/// supervisor writes to each take what its writer had not yet written
/// (`SharedTapSlot.finishTake`) before a new engine goes on with it.
///
/// Across processes only lock-free 64-bit atomics are shared (the ring's
/// positions, the counters, a slot's claim), which is sound on one mapping
/// of the same pages (Linux, x86-64 and arm64). The supervisor reads a
/// slot only after the engine that claimed it was reaped, and then takes
/// what it reads as hostile: sizes are bounded before use.
package final class SharedTapRegion: @unchecked Sendable {
    package let slotCount: Int
    /// Bytes of ring storage per slot.
    package let slotDataBytes: Int
    private let base: UnsafeMutableRawPointer
    private let size: Int

    package static let defaultSlotCount = 16
    /// 4 MiB: 2 s of 8 channels at 48 kHz, or 2 s of 2 at 192 kHz.
    package static let defaultSlotDataBytes = 4 << 20
    private static let magic: UInt64 = 0x6678_686f_7374_5431  // "fxhostT1"
    private static let headerBytes = 4096
    static let slotHeaderBytes = 8192
    private static let maximumSlots = 64
    private static let maximumSlotDataBytes = 64 << 20

    /// Made by the supervisor, with its descriptor (close-on-exec: pass it
    /// on explicitly). nil when the system gives no shared memory.
    package static func create(slotCount: Int = defaultSlotCount,
                               slotDataBytes: Int = defaultSlotDataBytes) -> (SharedTapRegion, Int32)? {
        let descriptor = fxhost_shared_memory_file("fxhost-taps")
        guard descriptor >= 0 else { return nil }
        let size = headerBytes + slotCount * (slotHeaderBytes + slotDataBytes)
        guard ftruncate(descriptor, off_t(size)) == 0,
              let region = SharedTapRegion(descriptor: descriptor, size: size, laying: (slotCount, slotDataBytes)) else {
            close(descriptor)
            return nil
        }
        return (region, descriptor)
    }

    /// An engine's view of the region its supervisor passed on `descriptor`
    /// (closed here once mapped); nil when there is none or it is not one.
    package static func inherited(descriptor: Int32) -> SharedTapRegion? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        defer { close(descriptor) }
        let size = Int(info.st_size)
        guard size >= headerBytes, let region = SharedTapRegion(descriptor: descriptor, size: size) else { return nil }
        return region.isValid ? region : nil
    }

    /// Maps it; with `laying` writes a new region's header, else reads an inherited one's (checked by `isValid`).
    private init?(descriptor: Int32, size: Int, laying shape: (slotCount: Int, slotDataBytes: Int)? = nil) {
        guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        base = mapped
        self.size = size
        if let shape {
            mapped.storeBytes(of: Self.magic, as: UInt64.self)
            (mapped + 8).storeBytes(of: shape.slotCount, as: Int.self)
            (mapped + 16).storeBytes(of: shape.slotDataBytes, as: Int.self)
        }
        slotCount = (mapped + 8).load(as: Int.self)
        slotDataBytes = (mapped + 16).load(as: Int.self)
    }

    private var isValid: Bool {
        base.load(as: UInt64.self) == Self.magic
            && (1...Self.maximumSlots).contains(slotCount) && (1...Self.maximumSlotDataBytes).contains(slotDataBytes)
            && Self.headerBytes + slotCount * (Self.slotHeaderBytes + slotDataBytes) == size
    }

    deinit { munmap(base, size) }

    /// Every slot, claimed or not.
    package var slots: [SharedTapSlot] {
        (0..<slotCount).map {
            SharedTapSlot(base: base + Self.headerBytes + $0 * (Self.slotHeaderBytes + slotDataBytes), dataBytes: slotDataBytes)
        }
    }

    /// Claims a free slot for the take written to `path`, with a ring of
    /// `frames` frames (fewer if the slot holds fewer, but at least half a
    /// second): reset and touched, so no page fault waits for the realtime
    /// thread. nil when none is free or none fits (the take then keeps its
    /// ring in this process alone, as an unsupervised one does).
    package func claim(path: String, channels: Int, sampleRate: Int, frames: Int) -> SharedTapSlot? {
        let name = Array(path.utf8)
        guard channels >= 1, sampleRate >= 1, frames >= 1, name.count <= SharedTapSlot.maximumPathBytes else { return nil }
        let fitting = min(frames, slotDataBytes / (channels * MemoryLayout<Float>.stride))
        guard fitting >= min(frames, max(sampleRate / 2, 1)) else { return nil }
        for slot in slots where slot.state.pointee.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged {
            slot.lay(path: name, channels: channels, sampleRate: sampleRate, frames: fitting)
            return slot
        }
        return nil
    }
}

/// One slot of a `SharedTapRegion`: a claim (0 free, 1 a take's), the
/// ring's two positions, the take's `TapCounters`, its channels, ring
/// frames, rate and file, then the ring's storage.
package struct SharedTapSlot: @unchecked Sendable {
    let base: UnsafeMutableRawPointer
    let dataBytes: Int

    static let maximumPathBytes = 4096
    private static let positionsOffset = 64
    private static let countersOffset = 256
    private static let shapeOffset = 384
    private static let pathOffset = 512

    var state: UnsafeMutablePointer<Atomic<Int>> { base.assumingMemoryBound(to: Atomic<Int>.self) }
    private var positions: UnsafeMutableRawPointer { base + Self.positionsOffset }
    private var storage: UnsafeMutableRawPointer { base + SharedTapRegion.slotHeaderBytes }
    private var shape: UnsafeMutablePointer<Int> { (base + Self.shapeOffset).assumingMemoryBound(to: Int.self) }

    /// True while a take holds it.
    package var isClaimed: Bool { state.pointee.load(ordering: .acquiring) != 0 }

    /// Hands it back (the take's recorder finished, or the supervisor
    /// wrote what a dead engine left in it).
    package func release() { state.pointee.store(0, ordering: .releasing) }

    fileprivate func lay(path: [UInt8], channels: Int, sampleRate: Int, frames: Int) {
        shape[0] = channels
        shape[1] = frames
        shape[2] = sampleRate
        shape[3] = path.count
        path.withUnsafeBytes { (base + Self.pathOffset).copyMemory(from: $0.baseAddress!, byteCount: path.count) }
        _ = TapCounters(cells: base + Self.countersOffset, reset: true)
        _ = SPSCFloatRing(channels: channels, capacity: frames, storage: storage, positions: positions, reset: true)
    }

    /// The take's shape as laid, nil when it does not fit the slot (a
    /// claim never finished, or memory scribbled on).
    var layout: (channels: Int, frames: Int, sampleRate: Int, path: String)? {
        let channels = shape[0], frames = shape[1], sampleRate = shape[2], length = shape[3]
        guard (1...4096).contains(channels), frames >= 1, frames <= dataBytes / (channels * MemoryLayout<Float>.stride),
              (1...1_536_000).contains(sampleRate), (1...Self.maximumPathBytes).contains(length) else { return nil }
        let bytes = UnsafeRawBufferPointer(start: base + Self.pathOffset, count: length)
        return (channels, frames, sampleRate, String(decoding: bytes, as: UTF8.self))
    }

    /// The file the take is written to, as claimed.
    package var path: String? { layout?.path }

    /// The ring and counters laid at the claim, for the recorder that claimed it.
    package var ring: SPSCFloatRing {
        SPSCFloatRing(channels: shape[0], capacity: shape[1], storage: storage, positions: positions, reset: false)
    }

    package var counters: TapCounters { TapCounters(cells: base + Self.countersOffset, reset: false) }
}
