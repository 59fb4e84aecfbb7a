import Foundation
import Glibc
import HostCore

/// One engine: a child process playing the session, its end of the link
/// (descriptor 3 in the child), and the pipe its crash handler reports on
/// (descriptor 4), and the shared region its takes' rings live in
/// (descriptor 5, when the supervisor has one: `SharedTakes`), and the one
/// its peak meters lie in (descriptor 6, when it has one: `SharedMeters`).
/// Its stdin is /dev/null (the console is the supervisor's); stdout and
/// stderr are the supervisor's.
package final class EngineProcess {
    package let pid: pid_t
    package let link: EngineLink
    private let crashPipe: Int32
    private(set) var ending: ChildProcess.Ending?

    /// The descriptors the child finds its link and its crash pipe on.
    package static let linkDescriptor: Int32 = 3
    package static let crashDescriptor: Int32 = 4
    package static let tapRegionDescriptor: Int32 = 5
    package static let meterRegionDescriptor: Int32 = 6

    package init(executable: String, arguments: [String], tapRegion: Int32? = nil,
                 meterRegion: Int32? = nil) throws(EngineLinkError) {
        let (mine, theirs) = try EngineLink.pair()
        let report: [Int32]
        do {
            let (readEnd, writeEnd) = try ChildProcess.pipe()
            report = [readEnd, writeEnd]
        } catch {
            close(mine)
            close(theirs)
            throw .broken("cannot make the engine's crash pipe (\(error.reason))")
        }
        let nothing = open("/dev/null", O_RDONLY | O_CLOEXEC)
        defer {
            close(theirs)
            close(report[1])
            if nothing >= 0 { close(nothing) }
        }
        do {
            pid = try ChildProcess.start(executable, arguments: arguments, standardInput: nothing >= 0 ? nothing : nil,
                                         keeping: [(theirs, Self.linkDescriptor), (report[1], Self.crashDescriptor)]
                                            + (tapRegion.map { [($0, Self.tapRegionDescriptor)] } ?? [])
                                            + (meterRegion.map { [($0, Self.meterRegionDescriptor)] } ?? []),
                                         blocking: [SIGINT, SIGTERM, SIGHUP])
        } catch {
            close(mine)
            close(report[0])
            throw .broken("cannot start the engine process (\(error.reason))")
        }
        link = EngineLink(descriptor: mine)
        crashPipe = report[0]
        _ = fcntl(crashPipe, F_SETFL, fcntl(crashPipe, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        link.close()
        close(crashPipe)
    }

    /// The crash pipe: readable once the handler reported (the engine may
    /// then be stopped rather than ended, during a bounce).
    package var crashDescriptorHere: Int32 { crashPipe }

    /// True once the crash handler has written its report.
    package var hasCrashReport: Bool {
        var entry = pollfd(fd: crashPipe, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0 && entry.revents & Int16(POLLIN) != 0
    }

    /// True once the process has ended (a plugin's child may hold the link
    /// open after it), reaped; a stopped one has not ended.
    package var hasEnded: Bool {
        if ending != nil { return true }
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        if result == pid {
            ending = ChildProcess.Ending(waitStatus: status)  // without WUNTRACED: never a stop
        } else if result < 0 && errno != EINTR {
            ending = .exited(0)  // reaped already, or not ours: gone either way
        }
        return ending != nil
    }

    /// Waits until the link has something to read, or the crash pipe, at most `seconds`.
    package func waitReadable(seconds: Double) {
        var entries = [pollfd(fd: link.descriptor, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: crashPipe, events: Int16(POLLIN), revents: 0)]
        _ = poll(&entries, 2, Int32(min(max(seconds * 1000, 0), 3_600_000).rounded(.up)))
    }

    /// What the crash handler wrote (empty: nothing; it ended another way).
    package func crashReport() -> String {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65536 {
            let count = chunk.withUnsafeMutableBytes { read(crashPipe, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// How it ended, waiting at most `seconds` (nil: it still runs).
    @discardableResult
    package func wait(seconds: Double, beating beat: () -> Void = {}) -> ChildProcess.Ending? {
        let deadline = LiveHost.now() + seconds
        while !hasEnded {
            guard LiveHost.now() < deadline else { return nil }
            beat()
            usleep(5000)
        }
        return ending
    }

    /// Ends it for good (it hung, or would not finish), and reaps it.
    package func kill(beating beat: () -> Void = {}) {
        guard ending == nil else { return }
        Glibc.kill(pid, SIGKILL)
        wait(seconds: 10, beating: beat)
    }
}
