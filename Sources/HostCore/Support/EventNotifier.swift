import Glibc

/// Wakes a thread that waits in `poll(2)`: a non-blocking pipe other threads
/// signal. `signal` is one `write` of a byte, which never blocks (a full
/// pipe is readable already, so a failed write loses nothing) and takes no
/// lock, so JACK's callback threads, render and signal threads may call it;
/// the realtime process callback never does. The waiter polls `descriptor`
/// and calls `drain` when woken.
package final class EventNotifier: Sendable {
    /// The read end, to poll.
    package let descriptor: Int32
    /// The write end, to signal.
    private let writeEnd: Int32

    package init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for end in ends {
                _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
                _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            }
        }
        descriptor = ends[0]
        writeEnd = ends[1]
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        if writeEnd >= 0 { close(writeEnd) }
    }

    package func signal() { Self.signal(writeEnd) }

    /// The descriptor C callbacks signal through their context (`signal(_:)`).
    package var signalDescriptor: Int32 { writeEnd }

    /// For C callbacks, which reach the descriptor through their context.
    package static func signal(_ descriptor: Int32) {
        guard descriptor >= 0 else { return }
        var one: UInt8 = 1
        _ = write(descriptor, &one, 1)
    }

    /// Clears what was signalled since the last drain.
    package func drain() {
        var bytes = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        while withUnsafeMutableBytes(of: &bytes, { read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }
}
