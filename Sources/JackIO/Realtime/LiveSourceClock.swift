import HostCore
import Synchronization

// Called by: the realtime thread (`framesToSkip`, at a fill while the clock
// has a task); made, read and broken on the control thread.

/// Where a live source (a file, a MIDI file) stands on the server's frame
/// clock, in raw memory the callback and the control thread share, so that
/// an engine restarted after a crash plays it on where it would have been,
/// as if no crash had come between.
///
/// `origin` is the JACK frame time at which the source's timeline was at 0,
/// as it plays now. The callback notes it at the source's first fill, and
/// again once the source fell behind the clock (a file's underrun, a bounce
/// played instead, a new server). A restarted engine's source is made with
/// the crashed one's origin: it starts near where that puts it, and its
/// first fills skip the frames the start took, exactly.
package struct LiveSourceClock: ~Copyable {
    /// Modulo 2^32, as JACK counts frames; -1 until known.
    package let origin: Atomic<Int>
    private let task: Atomic<Int>

    /// `anchor`: note `origin` at the next fill. `align`: skip to where
    /// `origin` puts the next fill (a resumed source).
    private enum Task: Int { case kept = 0, anchor, align }

    /// JACK counts frames in 32 bits; times and origins are kept modulo that.
    package static let frameTimeMask = 0xFFFF_FFFF

    /// A new source's clock, or a resumed one's (`resumingFrom`: the origin its crashed engine had).
    package init(resumingFrom origin: Int? = nil) {
        self.origin = Atomic(origin.map { $0 & Self.frameTimeMask } ?? -1)
        task = Atomic(origin == nil ? Task.anchor.rawValue : Task.align.rawValue)
    }

    /// A clock in memory of its own, or, with a supervisor's `region`, in
    /// its table under the source's `name`, where the supervisor reads it
    /// after the engine died. `free` it.
    package static func make(resumingFrom origin: Int?, name: String, region: SharedTapRegion?) -> UnsafeMutablePointer<LiveSourceClock> {
        let clock: UnsafeMutablePointer<LiveSourceClock>
        if MemoryLayout<LiveSourceClock>.size <= SharedTapRegion.clockCellBytes, MemoryLayout<LiveSourceClock>.alignment <= 8,
           let cells = region?.claimClock(name: name) {
            clock = cells.bindMemory(to: LiveSourceClock.self, capacity: 1)
        } else {
            clock = .allocate(capacity: 1)
        }
        clock.initialize(to: LiveSourceClock(resumingFrom: origin))
        return clock
    }

    /// Frees a clock `make` made (with the same region).
    package static func free(_ clock: UnsafeMutablePointer<LiveSourceClock>, region: SharedTapRegion?) {
        clock.deinitialize(count: 1)
        if region?.releaseClock(UnsafeMutableRawPointer(clock)) != true { clock.deallocate() }
    }

    /// A clock the supervisor reads in a dead engine's region (`make`'s cells).
    package static func reading(_ cells: UnsafeMutableRawPointer) -> UnsafePointer<LiveSourceClock> {
        UnsafePointer(cells.assumingMemoryBound(to: LiveSourceClock.self))
    }

    /// True when the next fill needs the frame time (one relaxed load).
    package var hasTask: Bool {
        @_noLocks get { task.load(ordering: .relaxed) != Task.kept.rawValue }
    }

    /// At a fill played at frame time `now` with the source at timeline
    /// frame `position`: the frames it must skip (at most `available`) to
    /// be where its origin puts it, after noting the origin if that was the
    /// task. A skip that `available` cut short goes on at the next fill.
    @_noLocks
    package func framesToSkip(now: Int, position: Int, available: Int) -> Int {
        if task.load(ordering: .relaxed) == Task.align.rawValue {
            let behind = (now - origin.load(ordering: .relaxed)) & Self.frameTimeMask - position
            if behind > 0 {
                let skipped = min(behind, max(available, 0))
                if skipped == behind { task.store(Task.kept.rawValue, ordering: .relaxed) }
                return skipped
            }
        }
        origin.store((now - position) & Self.frameTimeMask, ordering: .relaxed)
        task.store(Task.kept.rawValue, ordering: .relaxed)
        return 0
    }

    /// The source fell behind the clock (an underrun; a bounce or a new
    /// server on the control thread): its origin is noted anew at the next
    /// fill. A resumed source still aligning keeps its task.
    @_noLocks
    package func fellBehind() {
        _ = task.compareExchange(expected: Task.kept.rawValue, desired: Task.anchor.rawValue, ordering: .relaxed)
    }

    /// The origin, once known and still true (nil while it waits to be
    /// noted anew: the source fell behind, a bounce played instead).
    package var knownOrigin: Int? {
        let origin = origin.load(ordering: .relaxed)
        return origin < 0 || task.load(ordering: .relaxed) == Task.anchor.rawValue ? nil : origin
    }

    /// The origin a resumed source starts from (its task is to align to it).
    package var resumedOrigin: Int? {
        let origin = origin.load(ordering: .relaxed)
        return origin < 0 ? nil : origin
    }

    /// The timeline frame a resumed source should start at when the server's
    /// frame time is `now` (its fills then skip what the start took).
    package func position(at now: Int) -> Int? {
        resumedOrigin.map { (now - $0) & Self.frameTimeMask }
    }
}
