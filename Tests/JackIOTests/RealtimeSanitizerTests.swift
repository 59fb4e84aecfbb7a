import CCoreShim
import Foundation
import JackIO
import TestSupport
import XCTest

/// RealtimeSanitizer is linked into this test target and into `rtsan-probe`.
/// The probe runs a LiveEngine in a child process (a violation aborts the
/// whole process) on a private server this test owns.
final class RealtimeSanitizerTests: XCTestCase {
    func testTheSanitizerIsLinkedIntoTheTests() {
        XCTAssertEqual(fxhost_rtsan_available(), 1)
    }

    func testAnAllocationInTheCallbackIsCaught() throws {
        let server = try JackServerProcess(bufferFrames: 64)
        let result = try RealtimeSanitizerProbe.run("allocate", on: server, options: "halt_on_error=true")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("ERROR: RealtimeSanitizer"), result.stderr)
        XCTAssertTrue(result.stderr.contains("real-time unsafe function `malloc`"), result.stderr)
        XCTAssertTrue(result.stdout.contains("rtsan available: 1"), result.stdout)
        XCTAssertFalse(result.stdout.contains("cycles:"), "the probe must not survive its first cycle")
    }

    /// The in-process live tests rely on the default: a violation halts.
    func testHaltOnErrorIsTheDefault() throws {
        let server = try JackServerProcess(bufferFrames: 64)
        let result = try RealtimeSanitizerProbe.run("allocate", on: server, options: nil)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("ERROR: RealtimeSanitizer"), result.stderr)
        XCTAssertFalse(result.stdout.contains("cycles:"), "the probe must not survive its first cycle")
    }

    /// The control for the two tests above: the same probe without the
    /// allocation runs to the end with no report.
    func testTheSameProbeWithoutTheAllocationRunsClean() throws {
        let server = try JackServerProcess(bufferFrames: 64)
        let result = try RealtimeSanitizerProbe.run("clean", on: server, options: "halt_on_error=true")
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("RealtimeSanitizer"), result.stderr)
        XCTAssertTrue(result.stdout.contains("cycles:"), result.stdout)
    }

    /// The probe judges by cycles, not by time: on a server whose cycles
    /// come two seconds apart (as slow as a cold server on a busy machine
    /// can be) the control still applies every command it sent, and the
    /// allocation is still caught.
    func testTheProbeWaitsForCyclesOnASlowServer() throws {
        let server = try JackServerProcess(sampleRate: 1000, bufferFrames: 2048)
        let clean = try RealtimeSanitizerProbe.run("clean", on: server, options: "halt_on_error=true")
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        XCTAssertTrue(clean.stdout.contains("commands: 50 "), clean.stdout)
        let allocating = try RealtimeSanitizerProbe.run("allocate", on: server, options: "halt_on_error=true")
        XCTAssertTrue(allocating.stderr.contains("real-time unsafe function `malloc`"), allocating.stderr)
        XCTAssertFalse(allocating.stdout.contains("cycles:"), "the probe must not survive its first cycle")
    }

    /// Render workers run their tasks inside the sanitizer's realtime
    /// section too: an allocation in a task that a worker (not JACK's process
    /// thread) runs kills the probe, and the stack shows the worker's loop.
    func testAnAllocationOnARenderWorkerIsCaught() throws {
        let server = try JackServerProcess(bufferFrames: 64)
        let result = try RealtimeSanitizerProbe.run("allocate-on-worker", on: server, options: "halt_on_error=true")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("real-time unsafe function `malloc`"), result.stderr)
        XCTAssertTrue(result.stderr.contains("RenderWorkersV5serve"), "the report must come from a worker: \(result.stderr)")
        XCTAssertFalse(result.stdout.contains("cycles:"), "the probe must not survive")
    }

    /// The control: the same two-task program without the allocation runs
    /// to the end with no report, and the worker did run tasks (so the test
    /// above proves something about workers).
    func testRenderWorkersRunCleanUnderTheSanitizer() throws {
        let server = try JackServerProcess(bufferFrames: 64)
        let result = try RealtimeSanitizerProbe.run("clean-on-worker", on: server, options: "halt_on_error=true")
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertFalse(result.stderr.contains("RealtimeSanitizer"), result.stderr)
        XCTAssertTrue(result.stdout.contains("worker tasks: "), result.stdout)
    }
}
