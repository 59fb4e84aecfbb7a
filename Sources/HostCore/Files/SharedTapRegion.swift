import CCoreShim
import Glibc
import Synchronization

/// Shared memory for a supervised run's taps: a memfd the supervisor makes
/// once and hands every engine it starts (an inherited descriptor), with a
/// table of `slotCount` slots. An engine's `TapRecorder` claims a slot for
/// each take, lays its ring and counters there, creates the take's file
/// empty and publishes its name; the supervisor's `SharedTakes` writes the
/// file from the ring, so the take is written by the process no plugin
/// runs in, and goes on in the same file when a new engine takes over.
///
/// Across processes only lock-free 64-bit atomics are shared (the ring's
/// positions, the counters, a slot's state) and one process-shared
/// semaphore (the engine wakes the supervisor's writer), which is sound on
/// one mapping of the same pages (Linux, x86-64 and arm64). The supervisor
/// takes what it reads as hostile: sizes are bounded before use.
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
    private static let semaphoreOffset = 64
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
            sem_init((mapped + Self.semaphoreOffset).assumingMemoryBound(to: sem_t.self), 1, 0)
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
            SharedTapSlot(base: base + Self.headerBytes + $0 * (Self.slotHeaderBytes + slotDataBytes), dataBytes: slotDataBytes, index: $0)
        }
    }

    /// Claims a free slot for a take with a ring of `frames` frames (fewer
    /// if the slot holds fewer, but at least half a second): its ring and
    /// counters reset and touched, so no page fault waits for the realtime
    /// thread. nil when none is free or none fits (the take then keeps its
    /// ring in this process and writes its file itself, as an unsupervised
    /// one does). `publish` it once its file exists, or `release` it.
    package func claim(channels: Int, sampleRate: Int, frames: Int) -> SharedTapSlot? {
        guard channels >= 1, sampleRate >= 1, frames >= 1 else { return nil }
        let fitting = min(frames, slotDataBytes / (channels * MemoryLayout<Float>.stride))
        guard fitting >= min(frames, max(sampleRate / 2, 1)) else { return nil }
        for slot in slots where slot.state.pointee.compareExchange(expected: SharedTapSlot.free, desired: SharedTapSlot.laying,
                                                                   ordering: .acquiringAndReleasing).exchanged {
            slot.lay(channels: channels, sampleRate: sampleRate, frames: fitting)
            return slot
        }
        return nil
    }

    // MARK: Source clocks

    /// A table in the header: each entry a claim, 24 bytes of cells the
    /// engine's source clock lives in (a file or MIDI-file source's origin
    /// on the server's clock), and the source's name. The supervisor reads
    /// where each source stood after its engine died, however late the
    /// engine's last report over the link was.
    private static let clocksOffset = 128
    private static let clockEntryBytes = 160
    private static let clockCount = 24
    private static let clockNameOffset = 40
    private static let clockNameBytes = clockEntryBytes - clockNameOffset
    /// Bytes of cells an entry gives its clock.
    package static let clockCellBytes = 24

    private func clockEntry(_ index: Int) -> UnsafeMutableRawPointer { base + Self.clocksOffset + index * Self.clockEntryBytes }

    /// Claims an entry for the source `name`: its cells (`clockCellBytes`,
    /// 8-byte aligned, zeroed), or nil when none is free or the name is too long.
    package func claimClock(name: String) -> UnsafeMutableRawPointer? {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.clockNameBytes else { return nil }
        for index in 0..<Self.clockCount {
            let entry = clockEntry(index)
            guard entry.assumingMemoryBound(to: Atomic<Int>.self).pointee
                    .compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { continue }
            (entry + 8).initializeMemory(as: UInt8.self, repeating: 0, count: Self.clockCellBytes)
            bytes.withUnsafeBytes { (entry + Self.clockNameOffset).copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
            (entry + 32).storeBytes(of: bytes.count, as: Int.self)
            return entry + 8
        }
        return nil
    }

    /// Hands back the entry whose cells are `cells`; false when they are not an entry's.
    @discardableResult
    package func releaseClock(_ cells: UnsafeMutableRawPointer) -> Bool {
        for index in 0..<Self.clockCount where clockEntry(index) + 8 == cells {
            clockEntry(index).assumingMemoryBound(to: Atomic<Int>.self).pointee.store(0, ordering: .releasing)
            return true
        }
        return false
    }

    /// The claimed entries: each source's name (bounded) and its cells.
    package var clocks: [(name: String, cells: UnsafeMutableRawPointer)] {
        (0..<Self.clockCount).compactMap { index in
            let entry = clockEntry(index)
            guard entry.assumingMemoryBound(to: Atomic<Int>.self).pointee.load(ordering: .acquiring) != 0 else { return nil }
            let length = (entry + 32).load(as: Int.self)
            guard (1...Self.clockNameBytes).contains(length) else { return nil }
            let name = String(decoding: UnsafeRawBufferPointer(start: entry + Self.clockNameOffset, count: length), as: UTF8.self)
            return (name, entry + 8)
        }
    }

    /// The supervisor's side, once the engine that claimed them was reaped.
    package func releaseAllClocks() {
        for index in 0..<Self.clockCount {
            clockEntry(index).assumingMemoryBound(to: Atomic<Int>.self).pointee.store(0, ordering: .releasing)
        }
    }

    /// The engine's side: wakes the supervisor's writer (a take published or closing).
    package func wakeWriter() {
        sem_post(semaphore)
    }

    /// The supervisor's side: waits until an engine wakes it, or `seconds`
    /// pass (at most 1: the semaphore lies in memory an engine could have
    /// damaged, so no wait relies on it alone).
    package func waitForWork(seconds: Double) {
        var status: Int32
        var deadline = timespec()
        clock_gettime(CLOCK_REALTIME, &deadline)
        let nanoseconds = Int(deadline.tv_nsec) + Int(min(max(seconds, 0), 1) * 1e9)
        deadline.tv_sec += nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        repeat { status = sem_timedwait(semaphore, &deadline) } while status != 0 && errno == EINTR
        // A semaphore an engine scribbled on fails at once: never spin on it.
        if status != 0 && errno != ETIMEDOUT { usleep(useconds_t(TakeWriter.batchInterval)) }
    }

    private var semaphore: UnsafeMutablePointer<sem_t> {
        (base + Self.semaphoreOffset).assumingMemoryBound(to: sem_t.self)
    }
}

