import LiveControl
import Foundation
import Synchronization

/// With `FXHOST_TIMINGS` set in the environment, when each phase of a
/// command ended, printed on stderr as the command finishes: what
/// `scripts/startup.sh` breaks a short render down by. Unset (always, but
/// for measuring), a mark costs one check of a constant.
enum StartupTimings {
    static let enabled = getenv("FXHOST_TIMINGS") != nil

    /// Phase names and the monotonic time each ended, in nanoseconds.
    private static let marks = Mutex<[(phase: String, nanoseconds: UInt64)]>([])

    /// Notes that `phase` ended now.
    static func mark(_ phase: String) {
        guard enabled else { return }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nanoseconds = UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
        marks.withLock { $0.append((phase, nanoseconds)) }
    }

    /// One line per phase, `fxhost timing: PHASE MILLISECONDS`: the time
    /// since the previous mark (the first mark, `main`, is the origin).
    static func report() {
        guard enabled else { return }
        mark("end")
        let lines = marks.withLock { marks in
            zip(marks.dropFirst(), marks).map { mark, previous in
                "fxhost timing: \(mark.phase) "
                    + String(format: "%.3f", Double(mark.nanoseconds - previous.nanoseconds) / 1_000_000) + "\n"
            }
        }
        Terminal.writeAll(lines.joined(), to: STDERR_FILENO)
    }
}
