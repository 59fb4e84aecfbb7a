import Foundation
import XCTest
@testable import HostCore

final class PosixThreadTests: XCTestCase {
    /// The body runs on a thread of its own, under the given name (cut to
    /// the 15 bytes Linux keeps), and `join` returns only once it has finished.
    func testRunsTheBodyNamedAndJoins() throws {
        let seen = UnsafeMutablePointer<String>.allocate(capacity: 1)
        seen.initialize(to: "")
        defer { seen.deinitialize(count: 1); seen.deallocate() }
        let ranElsewhere = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
        ranElsewhere.initialize(to: false)
        defer { ranElsewhere.deallocate() }
        let starter = pthread_self()
        let thread = try PosixThread(name: "fxhost test thread name") {
            // Give join something to wait for: it must not return before this ends.
            sched_yield()
            seen.pointee = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
            ranElsewhere.pointee = pthread_equal(pthread_self(), starter) == 0
        }
        thread.join()
        XCTAssertTrue(ranElsewhere.pointee, "the body ran, on another thread, before join returned")
        XCTAssertEqual(seen.pointee, "fxhost test thr\n")
    }
}
