import CShim
import Foundation
import JackIO
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

    /// `-R` only as root; either way the server must come up.
    func testRealtimeIsAskedOnlyAsRoot() throws {
        let server = try JackServerProcess(realtime: true)
        let expected = getuid() == 0 ? "starting in realtime mode" : "starting in non-realtime mode"
        XCTAssertTrue(server.output.contains(expected), server.output)
        let plain = try JackServerProcess(realtime: false)
        XCTAssertTrue(plain.output.contains("starting in non-realtime mode"), plain.output)
    }
}
