import Foundation
import Glibc
import XCTest

/// FIFOs for tests of what fxhost refuses to open: opening one blocks until
/// its other end opens, so a test that would hang on one waits a while,
/// then opens the other end itself so the hung thread can end, and fails.
public enum FIFOs {
    /// Makes a FIFO at `path`.
    public static func make(_ path: String) throws {
        guard mkfifo(path, 0o644) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }

    /// Runs `body` on a thread of its own and returns what it returns, or
    /// fails and returns nil when it has not returned within `seconds`
    /// (then `fifo`'s other end is opened, so a blocked open returns).
    public static func promptly<T>(_ fifo: String, within seconds: Double = 30, _ body: @escaping () -> T,
                                   file: StaticString = #filePath, line: UInt = #line) -> T? {
        let box = ResultBox<T>()
        let done = DispatchSemaphore(value: 0)
        let work = UncheckedSendable(body)
        Thread.detachNewThread {
            box.value = work.value()
            done.signal()
        }
        if done.wait(timeout: .now() + seconds) == .success { return box.value }
        XCTFail("still waiting on the FIFO `\(fifo)` after \(seconds) s", file: file, line: line)
        let release = open(fifo, O_RDWR | O_NONBLOCK)
        _ = done.wait(timeout: .now() + 5)
        if release >= 0 { close(release) }
        return nil
    }
}

private final class ResultBox<T>: @unchecked Sendable {
    var value: T?
}

private struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
