import Foundation
import Glibc

/// What became of one item of a walk in child processes.
enum WalkResult<Outcome> {
    case finished(Outcome)
    /// The child died on this item by `signal` (a plugin that crashed).
    case crashed(signal: Int32)
    /// The child ended on this item without a signal, with `status` (a
    /// plugin that called exit()).
    case exited(status: Int32)
    /// The item did not finish in the time allowed; the child was killed.
    case hung
    /// The child reported this item in a line the walk cannot read.
    case unreadable(String)
}

/// Runs a walk over plugins in child processes forked from this one, in
/// order, one child after another: a plugin that crashes or hangs fails
/// that plugin alone, and the next child goes on from the plugin after it.
/// A child inherits the parent's loaded plugin world, so the first child
/// meets each plugin after the same plugins as one process would (some
/// crash only after others, as Calf Wavetable does); a child started after
/// a crash begins from the parent's state, without what the dead one ran.
///
/// The child tells the parent on a pipe, one line per event:
/// `S index` when it starts an item and `D index text` when it is done,
/// `text` being the outcome as `encode` writes it on one line.
enum ProcessWalk {
    static func walk<Outcome>(count: Int, secondsEach: Double, encode: (Outcome) -> String,
                              decode: (String) -> Outcome?, _ body: (Int) -> Outcome) -> [WalkResult<Outcome>] {
        var results: [WalkResult<Outcome>?] = Array(repeating: nil, count: count)
        var next = 0
        while next < count {
            var pipeEnds: [Int32] = [0, 0]
            guard pipe(&pipeEnds) == 0 else { fatalError("pipe: \(String(cString: strerror(errno)))") }
            fflush(stdout)
            fflush(stderr)
            let child = fork()
            if child == 0 {
                close(pipeEnds[0])
                walkInChild(from: next, count: count, reportingTo: pipeEnds[1], encode: encode, body)
            }
            close(pipeEnds[1])
            guard child > 0 else { fatalError("fork: \(String(cString: strerror(errno)))") }
            let (finished, current, hung) = follow(child: child, reading: pipeEnds[0], secondsEach: secondsEach,
                                                   decode: decode)
            close(pipeEnds[0])
            var status: Int32 = 0
            if hung { kill(child, SIGKILL) }
            while waitpid(child, &status, 0) < 0 && errno == EINTR {}
            for (index, result) in finished { results[index] = result }
            guard let current else {
                // The child ended between items: every item it took finished,
                // or it took none, and the item it was to take fails.
                if let last = finished.map(\.0).max() {
                    next = last + 1
                } else {
                    results[next] = .exited(status: status)
                    next += 1
                }
                continue
            }
            let died = status & 0x7f
            results[current] = hung ? .hung : died != 0 ? .crashed(signal: died) : .exited(status: (status >> 8) & 0xff)
            next = current + 1
        }
        return results.map { $0 ?? .exited(status: -1) }
    }

    /// The child: walks from `first`, reports each item, and ends without
    /// running anything the parent registered to run at exit.
    private static func walkInChild<Outcome>(from first: Int, count: Int, reportingTo descriptor: Int32,
                                             encode: (Outcome) -> String, _ body: (Int) -> Outcome) -> Never {
        // The default actions: a crash ends the child at once, without a
        // backtracer taking seconds over it.
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT] { Glibc.signal(signal, SIG_DFL) }
        func say(_ line: String) {
            var bytes = Array((line + "\n").utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { _exit(70) }
                offset += written
            }
        }
        for index in first..<count {
            say("S \(index)")
            let text = encode(body(index)).map { $0 == "\n" || $0 == "\r" ? " " : $0 }
            say("D \(index) " + String(text))
        }
        _exit(0)
    }

    /// Reads the child's reports until its pipe closes or an item overruns
    /// `secondsEach`. Returns the items finished, the one started and not
    /// finished (nil if none), and whether that one overran.
    private static func follow<Outcome>(child: pid_t, reading descriptor: Int32, secondsEach: Double,
                                        decode: (String) -> Outcome?) -> ([(Int, WalkResult<Outcome>)], Int?, Bool) {
        var finished: [(Int, WalkResult<Outcome>)] = []
        var current: Int?
        var deadline = Date().addingTimeInterval(secondsEach)
        var pending = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let left = deadline.timeIntervalSinceNow
            if current != nil && left <= 0 { return (finished, current, true) }
            var descriptors = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&descriptors, 1, Int32(min(max(left, 0.01), 3600) * 1000))
            if ready < 0 && errno == EINTR { continue }
            if ready == 0 { continue }
            let count = read(descriptor, &buffer, buffer.count)
            if count < 0 && errno == EINTR { continue }
            if count <= 0 { return (finished, current, false) }
            pending += buffer[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                let parts = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count >= 2, let index = Int(parts[1]) else { continue }
                if parts[0] == "S" {
                    current = index
                    deadline = Date().addingTimeInterval(secondsEach)
                } else if parts[0] == "D" {
                    let text = parts.count == 3 ? String(parts[2]) : ""
                    finished.append((index, decode(text).map { .finished($0) } ?? .unreadable(text)))
                    current = nil
                }
            }
        }
    }
}
