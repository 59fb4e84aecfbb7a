import Foundation
import JackIO
import TestSupport
import XCTest

final class JackServerProcessTests: XCTestCase {
    func testStartsAPrivateServerWithTheAskedFormat() throws {
        let server = try JackServerProcess(sampleRate: 44_100, bufferFrames: 128)
        XCTAssertTrue(server.isRunning)
        let client = try JackClient(name: "format-check", server: server.name)
        XCTAssertEqual(client.sampleRate, 44_100)
        XCTAssertEqual(client.bufferSize, 128)
    }

    func testStopEndsTheServerSoClientsCannotConnect() throws {
        let server = try JackServerProcess()
        server.stop()
        XCTAssertFalse(server.isRunning)
        XCTAssertThrowsError(try JackClient(name: "late", server: server.name)) { error in
            XCTAssertEqual(error as? JackError, .noServer(server: server.name))
        }
    }

    func testUniqueNamesDiffer() {
        XCTAssertNotEqual(JackServerProcess.uniqueName(), JackServerProcess.uniqueName())
    }

    func testRefusesNamesThatCouldReachTheDefaultServer() {
        for name in ["default", "", "has space"] {
            XCTAssertThrowsError(try JackServerProcess(name: name)) { error in
                guard case .invalidName(name)? = error as? JackServerProcessError else {
                    return XCTFail("expected invalidName for `\(name)`, got \(error)")
                }
            }
        }
    }

    func testAServerThatExitsReportsItsStatus() {
        XCTAssertThrowsError(try JackServerProcess(executable: "/bin/false")) { error in
            guard case .exitedEarly(_, let status, _)? = error as? JackServerProcessError else {
                return XCTFail("expected exitedEarly, got \(error)")
            }
            XCTAssertEqual(status, 1)
        }
    }

    func testAMissingExecutableIsALaunchFailure() {
        XCTAssertThrowsError(try JackServerProcess(executable: "/nonexistent/jackd")) { error in
            guard case .launchFailed(let executable, _)? = error as? JackServerProcessError else {
                return XCTFail("expected launchFailed, got \(error)")
            }
            XCTAssertEqual(executable, "/nonexistent/jackd")
        }
    }

    /// A server that never becomes ready and ignores SIGTERM is still
    /// stopped: the wait is bounded and SIGKILL follows.
    func testAServerThatNeverAnswersIsKilledAfterTheBound() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("fake-jackd-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let script = directory.appendingPathComponent("jackd")
        let pidFile = directory.appendingPathComponent("pid")
        try "#!/bin/sh\necho $$ > '\(pidFile.path)'\ntrap '' TERM\nwhile true; do sleep 0.1; done\n"
            .write(to: script, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)

        XCTAssertThrowsError(try JackServerProcess(executable: script.path, readyTimeout: 0.5, stopGracePeriod: 0.5)) { error in
            guard case .notReady(_, let seconds, _)? = error as? JackServerProcessError else {
                return XCTFail("expected notReady, got \(error)")
            }
            XCTAssertEqual(seconds, 0.5)
        }
        let pid = try XCTUnwrap(Int32(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(kill(pid, 0), -1, "the fake server must be gone")
        XCTAssertEqual(errno, ESRCH)
    }

    /// `-R` only as root; either way the server must come up.
    func testRealtimeIsAskedOnlyAsRoot() throws {
        let server = try JackServerProcess(realtime: true)
        let expected = getuid() == 0 ? "starting in realtime mode" : "starting in non-realtime mode"
        XCTAssertTrue(server.output.contains(expected), server.output)
        let plain = try JackServerProcess(realtime: false)
        XCTAssertTrue(plain.output.contains("starting in non-realtime mode"), plain.output)
    }
}
