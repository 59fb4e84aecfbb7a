import Synchronization

/// A take's statistics, shared between the realtime side, the writer and
/// observers, and the pause switch the control thread sets for the
/// realtime side, in raw memory so the realtime side touches no class
/// reference. In a supervised run they lie in a `SharedTapSlot`, where the
/// engine and the supervisor's writer both see them.
package struct TapCounters: @unchecked Sendable {
    package let written: UnsafeMutablePointer<Atomic<Int>>
    package let dropped: UnsafeMutablePointer<Atomic<Int>>
    package let paused: UnsafeMutablePointer<Atomic<Bool>>
    /// Set by the writer once a write failed and the file is closed.
    package let failed: UnsafeMutablePointer<Atomic<Bool>>
    /// The JACK frame time of the first frame pushed; -1 until then.
    package let startFrame: UnsafeMutablePointer<Atomic<Int>>
    /// Frames played while paused, or left out by the server (cycles it
    /// did not run fxhost in): time that lies between the file's frames.
    package let skipped: UnsafeMutablePointer<Atomic<Int>>
    /// The JACK frame time the next push is due at; -1 before the first.
    package let nextFrame: UnsafeMutablePointer<Atomic<Int>>
    /// Frames the file held before the ring's first frame (a continued
    /// take's, and its gap); -1 until the writer knows.
    package let before: UnsafeMutablePointer<Atomic<Int>>
    /// The silence a continued take was given: where in the file it
    /// starts and its frames; -1 while none was.
    package let gapAt: UnsafeMutablePointer<Atomic<Int>>
    package let gapFrames: UnsafeMutablePointer<Atomic<Int>>
    /// Memory this value allocated itself (nil for cells in a slot, which the region owns).
    private let owned: UnsafeMutableRawPointer?

    /// The bytes `init(cells:reset:)` uses.
    package static let cellBytes = 10 * 8

    /// Cells at `cells` (`cellBytes` bytes, 8-byte aligned, provided and
    /// kept by the caller); with `reset` set to their starting values.
    package init(cells: UnsafeMutableRawPointer, reset: Bool) {
        self.init(cells: cells, reset: reset, owned: nil)
    }

    /// Cells of its own (`deallocate()` frees them).
    init() {
        let cells = UnsafeMutableRawPointer.allocate(byteCount: Self.cellBytes, alignment: 8)
        self.init(cells: cells, reset: true, owned: cells)
    }

    private init(cells: UnsafeMutableRawPointer, reset: Bool, owned: UnsafeMutableRawPointer?) {
        func cell<T: ~Copyable>(_ index: Int, _ type: T.Type) -> UnsafeMutablePointer<T> {
            (cells + index * 8).assumingMemoryBound(to: T.self)
        }
        written = cell(0, Atomic<Int>.self)
        dropped = cell(1, Atomic<Int>.self)
        paused = cell(2, Atomic<Bool>.self)
        failed = cell(3, Atomic<Bool>.self)
        startFrame = cell(4, Atomic<Int>.self)
        skipped = cell(5, Atomic<Int>.self)
        before = cell(6, Atomic<Int>.self)
        nextFrame = cell(7, Atomic<Int>.self)
        gapAt = cell(8, Atomic<Int>.self)
        gapFrames = cell(9, Atomic<Int>.self)
        self.owned = owned
        if reset {
            for (pointer, value) in [(written, 0), (dropped, 0), (startFrame, -1), (skipped, 0), (before, -1),
                                     (nextFrame, -1), (gapAt, -1), (gapFrames, -1)] {
                pointer.initialize(to: Atomic(value))
            }
            paused.initialize(to: Atomic(false))
            failed.initialize(to: Atomic(false))
        }
    }

    /// The silence a continued take was given, nil while none was.
    package var gap: (atFrame: Int, frames: Int)? {
        let frames = gapFrames.pointee.load(ordering: .acquiring)
        let at = gapAt.pointee.load(ordering: .relaxed)
        return frames > 0 && at >= 0 ? (at, frames) : nil
    }

    /// Frees cells of its own; cells in a slot are the region's.
    func deallocate() { owned?.deallocate() }
}
