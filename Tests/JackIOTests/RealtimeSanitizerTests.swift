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
        let result = try runProbe(["allocate", server.name, "64"], options: "halt_on_error=true")
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("ERROR: RealtimeSanitizer"), result.stderr)
        XCTAssertTrue(result.stderr.contains("real-time unsafe function `malloc`"), result.stderr)
        XCTAssertTrue(result.stdout.contains("rtsan available: 1"), result.stdout)
        XCTAssertFalse(result.stdout.contains("cycles:"), "the probe must not survive its first cycle")
    }

    /// The in-process live tests rely on the default: a violation halts.
    func testHaltOnErrorIsTheDefault() throws {
        let server = try JackServerProcess(bufferFrames: 64)
        let result = try runProbe(["allocate", server.name, "64"], options: nil)
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("ERROR: RealtimeSanitizer"), result.stderr)
        XCTAssertFalse(result.stdout.contains("cycles:"), "the probe must not survive its first cycle")
    }

    /// The control for the two tests above: the same probe without the
    /// allocation runs to the end with no report.
    func testTheSameProbeWithoutTheAllocationRunsClean() throws {
        let server = try JackServerProcess(bufferFrames: 64)
        let result = try runProbe(["clean", server.name, "64"], options: "halt_on_error=true")
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
        let clean = try runProbe(["clean", server.name, "64"], options: "halt_on_error=true")
        XCTAssertEqual(clean.status, 0, clean.stdout + clean.stderr)
        XCTAssertTrue(clean.stdout.contains("commands: 50 "), clean.stdout)
        let allocating = try runProbe(["allocate", server.name, "64"], options: "halt_on_error=true")
        XCTAssertTrue(allocating.stderr.contains("real-time unsafe function `malloc`"), allocating.stderr)
        XCTAssertFalse(allocating.stdout.contains("cycles:"), "the probe must not survive its first cycle")
    }

    /// Render workers run their tasks inside the sanitizer's realtime
    /// section too: an allocation in a task that a worker (not JACK's process
    /// thread) runs kills the probe, and the stack shows the worker's loop.
    func testAnAllocationOnARenderWorkerIsCaught() throws {
        let server = try JackServerProcess(bufferFrames: 64)
        let result = try runProbe(["allocate-on-worker", server.name, "64"], options: "halt_on_error=true")
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
        let result = try runProbe(["clean-on-worker", server.name, "64"], options: "halt_on_error=true")
        XCTAssertEqual(result.status, 0, result.stdout + result.stderr)
        XCTAssertFalse(result.stderr.contains("RealtimeSanitizer"), result.stderr)
        XCTAssertTrue(result.stdout.contains("worker tasks: "), result.stdout)
    }

    private struct ProbeResult {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the probe built next to this test bundle, killing it after 120 s
    /// (the probe itself gives the first cycle 60 s).
    private func runProbe(_ arguments: [String], options: String?) throws -> ProbeResult {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let probe = directory.appendingPathComponent("rtsan-probe")
        // A failure, not a skip: without the probe the sanitizer is untested.
        guard FileManager.default.isExecutableFile(atPath: probe.path) else {
            struct ProbeMissing: Error, CustomStringConvertible { var description: String }
            throw ProbeMissing(description: "rtsan-probe is not built next to the tests at \(probe.path); run `swift build --build-tests`")
        }
        let process = Process()
        process.executableURL = probe
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["RTSAN_OPTIONS"] = options
        process.environment = environment
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rtsan-probe-\(UUID().uuidString)")
        let stdoutURL = output.appendingPathExtension("out"), stderrURL = output.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: stdoutURL)
            try? FileManager.default.removeItem(at: stderrURL)
        }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return ProbeResult(status: process.terminationStatus,
                           stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
                           stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
    }
}
