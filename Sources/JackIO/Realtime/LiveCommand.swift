import Synchronization

/// A fixed-size message to the realtime thread: a store it makes at the start
/// of a block. Pointers must stay valid until the command is applied: point
/// into memory owned by a unit or by a program that is current or pending.
public enum LiveCommand {
    /// A gain or a control port value.
    case setFloat(UnsafeMutablePointer<Float>, Float)
    /// A bypass or enable flag.
    case setFlag(UnsafeMutablePointer<UInt8>, UInt8)

    @inlinable @_noLocks
    public func apply() {
        switch self {
        case .setFloat(let target, let value): target.pointee = value
        case .setFlag(let target, let value): target.pointee = value
        }
    }
}

/// A lock-free single-producer single-consumer queue of `LiveCommand`s with a
/// fixed capacity. One control thread pushes (serialise producers yourself);
/// the realtime thread applies them with `applyPending`.
public struct LiveCommandQueue: ~Copyable {
    private let slots: UnsafeMutablePointer<LiveCommand>
    private let mask: Int
    /// Commands pushed so far (written by the producer only).
    private let pushed = Atomic<Int>(0)
    /// Commands applied so far (written by the consumer only).
    private let applied = Atomic<Int>(0)

    /// Room for `capacity` commands, rounded up to a power of two. The slots
    /// are allocated and written here, off the realtime thread.
    public init(capacity: Int) {
        var size = 1
        while size < max(capacity, 1) { size <<= 1 }
        // LiveCommand is trivial, so zeroed bytes are ready to overwrite; zeroing
        // also faults the pages in now rather than on the realtime thread.
        let stride = MemoryLayout<LiveCommand>.stride
        let bytes = UnsafeMutableRawPointer.allocate(byteCount: size * stride, alignment: MemoryLayout<LiveCommand>.alignment)
        bytes.initializeMemory(as: UInt8.self, repeating: 0, count: size * stride)
        slots = bytes.bindMemory(to: LiveCommand.self, capacity: size)
        mask = size - 1
    }

    deinit {
        slots.deallocate()
    }

    public var capacity: Int { mask + 1 }

    /// Producer side. False when the queue is full (the command is not queued).
    public func push(_ command: LiveCommand) -> Bool {
        let position = pushed.load(ordering: .relaxed)
        guard position - applied.load(ordering: .acquiring) < mask + 1 else { return false }
        slots[position & mask] = command
        pushed.store(position + 1, ordering: .releasing)
        return true
    }

    /// Consumer side: applies every command pushed before this call, in
    /// order, and returns how many.
    @_noLocks
    public func applyPending() -> Int {
        let start = applied.load(ordering: .relaxed)
        let end = pushed.load(ordering: .acquiring)
        var position = start
        while position != end {
            slots[position & mask].apply()
            position &+= 1
        }
        applied.store(end, ordering: .releasing)
        return end &- start
    }
}
