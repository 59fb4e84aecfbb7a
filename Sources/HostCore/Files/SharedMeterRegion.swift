import CCoreShim
import Glibc
import Synchronization

/// Shared memory for a supervised run's peak meters: a memfd the supervisor
/// makes once and hands every engine it starts (an inherited descriptor).
/// It holds the cells the realtime thread raises (output channel `i` in
/// output cell `i`; each tap in a slot of `tapSlotChannels` cells) and a
/// table naming them, which the engine writes and the supervisor reads.
///
/// Who takes peaks: in a supervised run only the supervisor exchanges these
/// cells (its own `OutputPeakReaders`); the engine's realtime thread only
/// raises them and the engine never takes them. The cells outlive each
/// engine, so a peak raised just before a crash, and every reader's
/// maximum, survive the restart.
///
/// The table is a seqlock: the engine makes the generation odd, writes,
/// makes it even; `layout` copies it and keeps the copy only if the
/// generation was even and unchanged. The supervisor reads the region as
/// hostile: every count, size and name is bounded, and garbage yields no readings.
package final class SharedMeterRegion: @unchecked Sendable {
    /// A metered set of channels as the table names it.
    package struct Entry: Equatable, Sendable {
        package enum Kind: Int, Sendable { case output = 1, tap = 2 }
        package var kind: Kind
        package var node: String
        /// Output cells from here, or the tap slot.
        package var first: Int
        package var channels: Int

        package init(kind: Kind, node: String, first: Int, channels: Int) {
            self.kind = kind
            self.node = node
            self.first = first
            self.channels = channels
        }
    }

    /// Output cells: one per output channel, at most this many (JACK clients rarely have more).
    package static let outputCells = 256
    package static let tapSlots = 64
    package static let tapSlotChannels = 64
    /// A node's name is listed up to this many bytes (JACK's port names are shorter).
    package static let maximumNameBytes = 256
    private static let maximumEntries = outputCells + tapSlots

    private static let magic: UInt64 = 0x6678_686f_7374_4d31  // "fxhostM1"
    private static let generationOffset = 8
    private static let sharedOffset = 16
    private static let countOffset = 24
    private static let tableOffset = 4096
    private static let entryBytes = 32 + maximumNameBytes
    private static let cellsOffset = tableOffset + maximumEntries * entryBytes
    private static let size = cellsOffset + (outputCells + tapSlots * tapSlotChannels) * MemoryLayout<UInt32>.stride
    private static let page = 4096
    /// The region's length in bytes (a test maps it to scribble on it).
    package static var byteCount: Int { size }

    private let base: UnsafeMutableRawPointer
    /// Tap slots this engine holds (its own bookkeeping, not shared: an engine
    /// starts with every slot free, whatever a dead one left).
    private var claimed = [Bool](repeating: false, count: tapSlots)

    /// Made by the supervisor, with its descriptor (close-on-exec: pass it
    /// on explicitly). nil when the system gives no shared memory.
    package static func create() -> (SharedMeterRegion, Int32)? {
        let descriptor = fxhost_shared_memory_file("fxhost-meters")
        guard descriptor >= 0 else { return nil }
        guard ftruncate(descriptor, off_t(size)) == 0, let region = SharedMeterRegion(descriptor: descriptor) else {
            close(descriptor)
            return nil
        }
        region.base.storeBytes(of: magic, as: UInt64.self)
        return (region, descriptor)
    }

    /// An engine's view of the region its supervisor passed on `descriptor`
    /// (closed here once mapped); nil when there is none or it is not one.
    /// Every page is touched (written) now, so none faults on the realtime
    /// thread, and the table is emptied: this engine lists its own meters.
    package static func inherited(descriptor: Int32) -> SharedMeterRegion? {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return nil }
        defer { close(descriptor) }
        guard Int(info.st_size) == size, let region = SharedMeterRegion(descriptor: descriptor),
              region.base.load(as: UInt64.self) == magic else { return nil }
        var offset = 0
        while offset < size {
            // An atomic add of nothing: a write that changes no cell the supervisor may be exchanging.
            (region.base + offset).assumingMemoryBound(to: Atomic<UInt32>.self).pointee.wrappingAdd(0, ordering: .relaxed)
            offset += page
        }
        region.publish(shared: false, entries: [])
        return region
    }

    private init?(descriptor: Int32) {
        guard let mapped = mmap(nil, Self.size, PROT_READ | PROT_WRITE, MAP_SHARED, descriptor, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1) else { return nil }
        base = mapped
    }

    deinit { munmap(base, Self.size) }

    private var generation: UnsafeMutablePointer<Atomic<UInt64>> {
        (base + Self.generationOffset).assumingMemoryBound(to: Atomic<UInt64>.self)
    }

    private var cells: UnsafeMutablePointer<Atomic<UInt32>> {
        (base + Self.cellsOffset).assumingMemoryBound(to: Atomic<UInt32>.self)
    }

    // MARK: The engine's side

    /// The output cells for `channels` channels; nil when there are more than fit.
    package func outputPeaks(channels: Int) -> UnsafeMutablePointer<Atomic<UInt32>>? {
        (1...Self.outputCells).contains(channels) ? cells : nil
    }

    /// Claims a free tap slot for `channels` channels; nil when none is
    /// free or it is wider than a slot. Its cells are cleared: a peak left by
    /// another tap is not this one's.
    package func claimTapSlot(channels: Int) -> Int? {
        guard (1...Self.tapSlotChannels).contains(channels), let slot = claimed.firstIndex(of: false) else { return nil }
        claimed[slot] = true
        let peaks = tapPeaks(slot: slot)
        for channel in 0..<Self.tapSlotChannels { peaks[channel].store(0, ordering: .relaxed) }
        return slot
    }

    package func releaseTapSlot(_ slot: Int) {
        if claimed.indices.contains(slot) { claimed[slot] = false }
    }

    /// A tap slot's cells.
    package func tapPeaks(slot: Int) -> UnsafeMutablePointer<Atomic<UInt32>> {
        cells + Self.outputCells + slot * Self.tapSlotChannels
    }

    /// Writes the table: `shared` says the engine's output meters lie here
    /// (else the supervisor asks the engine over the link, as without a
    /// region). Entries that do not fit are left out.
    package func publish(shared: Bool, entries: [Entry]) {
        let listed = entries.filter { $0.node.utf8.count <= Self.maximumNameBytes }.prefix(Self.maximumEntries)
        // Odd while written; from an even number even if a dead engine left it odd.
        let writing = generation.pointee.load(ordering: .relaxed) & ~1 &+ 1
        generation.pointee.store(writing, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        (base + Self.sharedOffset).storeBytes(of: shared ? 1 : 0, as: Int.self)
        (base + Self.countOffset).storeBytes(of: listed.count, as: Int.self)
        for (index, entry) in listed.enumerated() {
            let at = base + Self.tableOffset + index * Self.entryBytes
            let name = Array(entry.node.utf8)
            at.storeBytes(of: entry.kind.rawValue, as: Int.self)
            (at + 8).storeBytes(of: entry.first, as: Int.self)
            (at + 16).storeBytes(of: entry.channels, as: Int.self)
            (at + 24).storeBytes(of: name.count, as: Int.self)
            name.withUnsafeBytes { (at + 32).copyMemory(from: $0.baseAddress!, byteCount: name.count) }
        }
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        generation.pointee.store(writing &+ 1, ordering: .relaxed)  // even: whole
    }

    // MARK: The supervisor's side

    /// The table as the engine last wrote it, each entry within its bounds;
    /// nil when the engine's meters are not here (none laid yet, or it
    /// could not), or the table is garbage or keeps changing under the read.
    package var layout: [Entry]? {
        guard base.load(as: UInt64.self) == Self.magic else { return nil }
        for _ in 0..<4 {
            let before = generation.pointee.load(ordering: .acquiring)
            guard before & 1 == 0 else {
                sched_yield()
                continue
            }
            let read = readTable()
            atomicMemoryFence(ordering: .sequentiallyConsistent)
            guard generation.pointee.load(ordering: .relaxed) == before else { continue }
            return read
        }
        return nil
    }

    private func readTable() -> [Entry]? {
        guard (base + Self.sharedOffset).load(as: Int.self) == 1 else { return nil }
        let count = (base + Self.countOffset).load(as: Int.self)
        guard (0...Self.maximumEntries).contains(count) else { return nil }
        var entries: [Entry] = []
        for index in 0..<count {
            let at = base + Self.tableOffset + index * Self.entryBytes
            let kind = Entry.Kind(rawValue: at.load(as: Int.self))
            let first = (at + 8).load(as: Int.self), channels = (at + 16).load(as: Int.self)
            let length = (at + 24).load(as: Int.self)
            guard let kind, (1...Self.maximumNameBytes).contains(length) else { continue }
            switch kind {
            case .output:
                guard (0..<Self.outputCells).contains(first), (1...Self.outputCells - first).contains(channels) else { continue }
            case .tap:
                guard (0..<Self.tapSlots).contains(first), (1...Self.tapSlotChannels).contains(channels) else { continue }
            }
            let name = String(decoding: UnsafeRawBufferPointer(start: at + 32, count: length), as: UTF8.self)
            entries.append(Entry(kind: kind, node: name, first: first, channels: channels))
        }
        return entries
    }

    /// The output cells, for the supervisor's readers (all of them: which are in use is the table's to say).
    package var allOutputPeaks: UnsafeMutablePointer<Atomic<UInt32>> { cells }
}
