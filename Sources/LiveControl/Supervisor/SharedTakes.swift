import Glibc
import HostCore
import JackIO

/// The supervisor's side of its engines' takes: the shared region their
/// tap rings and counters live in (`SharedTapRegion`, made once, passed to
/// every engine, kept across restarts). After an engine died, `finish`
/// writes to each of its takes what the dead engine's realtime thread had
/// pushed and its writer had not written, and reads the takes' counters as
/// they stood, so the take a new engine goes on with is exact.
package final class SharedTakes {
    private let region: SharedTapRegion?
    /// The region's descriptor, for the engine (nil: none could be made;
    /// each engine then keeps its rings to itself, as before).
    package let descriptor: Int32?

    package init() {
        if let (region, descriptor) = SharedTapRegion.create() {
            self.region = region
            self.descriptor = descriptor
        } else {
            region = nil
            descriptor = nil
        }
    }

    deinit { if let descriptor { close(descriptor) } }

    /// Once the engine that held them was reaped: finishes every take left
    /// in the region, brings `taps` (the takes as last read) up to date from
    /// the counters, and frees the slots. Returns a sentence for each take
    /// that could not be finished (a full disk).
    package func finish(_ taps: inout [LiveStatus.Tap]) -> [String] {
        guard let region else { return [] }
        var failures: [String] = []
        for slot in region.slots where slot.isClaimed {
            defer { slot.release() }
            // Only a take the engine said it records: the region is the engine's
            // to write, and a path scribbled there must not lead this process to another file.
            guard let path = slot.path,
                  let index = taps.firstIndex(where: { $0.file == path && ($0.state == .recording || $0.state == .paused) })
            else { continue }
            do {
                _ = try slot.finishTake()
            } catch {
                failures.append("the end of the take `\(TerminalText.escaped(path))` could not be written: \(error)")
            }
            let counters = slot.counters
            // A continued take whose writer had not yet placed its first frame
            // wrote nothing: it stays as last read, to be continued from there.
            guard counters.before.pointee.load(ordering: .acquiring) >= 0 else { continue }
            taps[index].droppedFrames = counters.dropped.pointee.load(ordering: .acquiring)
            taps[index].skippedFrames = counters.skipped.pointee.load(ordering: .acquiring)
            let first = counters.startFrame.pointee.load(ordering: .acquiring)
            let before = counters.before.pointee.load(ordering: .acquiring)
            // A clock the engine had given up on (after a bounce) stays unknown.
            if taps[index].startFrame != nil, first >= 0, before >= 0 { taps[index].startFrame = first &- before }
            if !counters.failed.pointee.load(ordering: .acquiring) {
                taps[index].state = counters.paused.pointee.load(ordering: .acquiring) ? .paused : .recording
            }
        }
        return failures
    }
}
