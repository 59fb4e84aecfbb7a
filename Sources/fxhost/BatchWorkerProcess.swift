import Foundation
import Glibc
import HostCore

/// One worker process of a batch, seen from the parent: started with
/// `posix_spawn` on this same executable, its stdin a pipe for files, its
/// protocol channel and its stderr pipes the parent reads without blocking.
final class BatchWorkerProcess {
    let pid: pid_t
    /// Where files are handed over (-1 once closed: no more files).
    private(set) var input: Int32
    /// Its reports (-1 at end of file).
    private(set) var reports: Int32
    /// Its stderr (-1 at end of file).
    private(set) var errors: Int32
    /// A report line is the parent's input: one longer than this (a summary is a few kilobytes) is malformed.
    var reportLines = LineBuffer(limit: 1 << 20)
    /// Longer stderr lines are cut, not refused: plugins print what they like.
    var errorLines = LineBuffer(limit: 1 << 16)
    /// It reported that it waits for files.
    var isReady = false
    /// The file it renders (index in the batch), if any.
    var file: Int?
    /// The identity of each output of `file` before it was handed over: an output already there
    /// (from an earlier run) is left alone when the worker dies, one written since is removed.
    var outputsBefore: [String: FileIdentity] = [:]
    /// The last `fxhost: error:` line on its stderr since it took `file`: a crash's own sentence.
    var lastError: String?
    /// Why the parent stopped it, if it did (a malformed report).
    var stoppedBecause: String?
    private(set) var ending: ChildProcess.Ending?
    var hasEnded: Bool { ending != nil }

    /// Starts `executable` with `arguments` (argv[0] included) and the parent's environment.
    init(executable: String, arguments: [String]) throws {
        var inputPipe: [Int32] = [-1, -1], reportPipe: [Int32] = [-1, -1], errorPipe: [Int32] = [-1, -1]
        func closeAll() { for fd in inputPipe + reportPipe + errorPipe where fd >= 0 { close(fd) } }
        // Close-on-exec: a worker inherits only the ends dup2'd onto its 0, 1 and 2, not its siblings' pipes.
        // (pipe2 is not visible to Swift here; the batch starts workers from one thread, so no exec comes between.)
        func openPipe(_ ends: inout [Int32]) -> Bool {
            guard pipe(&ends) == 0 else { return false }
            return ends.allSatisfy { fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }
        }
        guard openPipe(&inputPipe), openPipe(&reportPipe), openPipe(&errorPipe) else {
            let reason = String(cString: strerror(errno))
            closeAll()
            throw CommandLineError("a batch worker could not start: no pipe for it (\(reason))")
        }
        let child: pid_t
        do throws(ChildProcessError) {
            child = try ChildProcess.start(executable, arguments: arguments, standardInput: inputPipe[0],
                                           standardOutput: reportPipe[1], standardError: errorPipe[1])
        } catch {
            closeAll()
            throw CommandLineError("a batch worker could not start: \(error.reason)")
        }
        close(inputPipe[0])
        close(reportPipe[1])
        close(errorPipe[1])
        pid = child
        input = inputPipe[1]
        reports = reportPipe[0]
        errors = errorPipe[0]
        for fd in [reports, errors] { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
    }

    deinit {
        for fd in [input, reports, errors] where fd >= 0 { close(fd) }
    }

    /// Hands over one line; false when the worker is gone (SIGPIPE is ignored during a batch).
    func send(_ line: String) -> Bool {
        guard input >= 0 else { return false }
        var bytes = Array((line + "\n").utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { write(input, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            guard written > 0 else { return false }
            bytes = bytes.dropFirst(written)
        }
        return true
    }

    /// No more files: the worker ends once its file is done.
    func closeInput() {
        guard input >= 0 else { return }
        close(input)
        input = -1
    }

    /// Reads what is there without blocking; at end of file the descriptor is closed and set to -1.
    /// Returns the bytes read from `reports` and `errors`.
    func readAvailable() -> (reports: [UInt8], errors: [UInt8]) {
        (drain(&reports), drain(&errors))
    }

    private func drain(_ descriptor: inout Int32) -> [UInt8] {
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while descriptor >= 0 {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                collected += buffer[..<count]
                // Bounded per call, so one chatty worker cannot starve the others.
                if collected.count >= 1 << 20 { break }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                close(descriptor)
                descriptor = -1
            } else if errno == EAGAIN {
                break
            }
        }
        return collected
    }

    /// Whether it has ended; waits for it only when `blocking`.
    func reap(blocking: Bool) -> Bool {
        if ending != nil { return true }
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, blocking ? 0 : WNOHANG) } while result < 0 && errno == EINTR
        guard result == pid else { return false }
        ending = ChildProcess.Ending(waitStatus: status)
        return true
    }

    func kill(_ signal: Int32) {
        if ending == nil { _ = Glibc.kill(pid, signal) }
    }
}
