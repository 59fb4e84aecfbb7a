import Foundation
import JackIO
import TestSupport
import XCTest

/// JACK keeps eight server slots in a registry in shared memory (see
/// `JackServerRegistry`); a test server stopped the hard way keeps its slot
/// for good. These tests count the registry's entries for their own
/// servers before and after starting and stopping servers the ways the
/// other tests do, and require the counts to be equal.
///
/// They count only servers named with this process's own prefix: the
/// registry is shared by everything on the machine, and another checkout's
/// test run may start, stop (or leak) servers at the same time.
final class JackServerSlotTests: XCTestCase {
    private let prefix = "fxhost-slots-\(getpid())-"

    private func name() -> String { JackServerProcess.uniqueName(prefix: "fxhost-slots") }

    private func ownEntries() throws -> [JackServerRegistry.Entry] {
        try JackServerRegistry.read().entries(namedWithPrefix: prefix)
    }

    /// The reader sees a running server's slot with jackd's pid, and the
    /// slot is gone when the server has stopped.
    func testARunningServerHoldsASlotUntilItStops() throws {
        let before = try ownEntries()
        let server = try JackServerProcess(name: name())
        let entry = try XCTUnwrap(JackServerRegistry.read().entry(for: server.name), "no slot for a running server")
        XCTAssertEqual(entry.pid, server.processIdentifier)
        XCTAssertTrue(entry.isAlive)
        XCTAssertEqual(try ownEntries().count, before.count + 1)
        XCTAssertTrue(JackServerRegistry.files(of: server.name).contains("jack_\(server.name)_0_0"), "its socket in /dev/shm")
        server.stop()
        XCTAssertFalse(server.wasKilled)
        XCTAssertEqual(try ownEntries(), before)
        XCTAssertEqual(JackServerRegistry.files(of: server.name), [])
    }

    /// Every way the tests stop servers gives the slots back: `stop()`,
    /// deinit at the end of a scope, a client still open when the server
    /// stops (the rigs' order before they closed their clients first), and
    /// the RealtimeSanitizer tests' path, where the child process that is
    /// a client dies on the server's realtime thread. That last one, on a
    /// server with 2 s periods as in `testTheProbeWaitsForCyclesOnASlowServer`,
    /// took 3.3 s to exit: longer than the 3 s `stop()` used to wait
    /// before it killed the server, which then kept its slot.
    func testServersStoppedAsTheTestsStopThemGiveTheirSlotsBack() throws {
        let before = try ownEntries()
        var names: [String] = []

        let stopped = try JackServerProcess(name: name())
        names.append(stopped.name)
        stopped.stop()
        XCTAssertFalse(stopped.wasKilled, "stop()")

        do {
            let scoped = try JackServerProcess(name: name())
            names.append(scoped.name)
        }

        let withClient = try JackServerProcess(name: name())
        names.append(withClient.name)
        let client = try JackClient(name: "left-open", server: withClient.name)
        try client.activate()
        withClient.stop()
        XCTAssertFalse(withClient.wasKilled, "a client left open")
        client.abandon()

        let slow = try JackServerProcess(name: name(), sampleRate: 1000, bufferFrames: 1024)
        names.append(slow.name)
        let probe = try RealtimeSanitizerProbe.run("allocate", on: slow, options: "halt_on_error=true")
        XCTAssertTrue(probe.stderr.contains("real-time unsafe function `malloc`"), "the probe must die on the server: \(probe.stderr)")
        slow.stop()
        XCTAssertFalse(slow.wasKilled, "a slow server whose client died in a cycle")

        XCTAssertEqual(try ownEntries(), before, "slots left behind")
        for name in names {
            XCTAssertEqual(JackServerRegistry.files(of: name), [], "files left in /dev/shm by \(name)")
        }
    }

    /// A server that does not answer SIGTERM in time is killed, which keeps
    /// its slot; `stop()` then reclaims the slot with a server of the same
    /// name. A server frozen with SIGSTOP stands in for a stuck one.
    func testAServerThatHasToBeKilledStillGivesItsSlotBack() throws {
        let before = try ownEntries()
        let server = try JackServerProcess(name: name())
        XCTAssertEqual(kill(server.processIdentifier, SIGSTOP), 0)
        server.stop(gracePeriod: 0.5)
        XCTAssertTrue(server.wasKilled, "a frozen server cannot exit by itself")
        XCTAssertEqual(try ownEntries(), before)
        XCTAssertEqual(JackServerRegistry.files(of: server.name), [])
    }

    /// The fact the reclaiming relies on: a killed server keeps its slot
    /// (with a pid that is gone) and its socket in /dev/shm, and a server
    /// of the same name takes both over and frees them when it stops.
    func testAKilledServersSlotStaysUntilAServerOfTheSameNameRuns() throws {
        let before = try ownEntries()
        let server = try JackServerProcess(name: name())
        XCTAssertEqual(kill(server.processIdentifier, SIGKILL), 0)
        XCTAssertTrue(eventually(within: 10) { !server.isRunning })
        let kept = try XCTUnwrap(JackServerRegistry.read().entry(for: server.name), "a killed server keeps its slot")
        XCTAssertFalse(kept.isAlive)
        XCTAssertEqual(JackServerRegistry.files(of: server.name).first, "jack_\(server.name)_0_0")

        try JackServerProcess.reclaimSlot(named: server.name)
        XCTAssertEqual(try ownEntries(), before)
        XCTAssertEqual(JackServerRegistry.files(of: server.name), [])
    }

    /// A server dies with the process that started it, and gives its slot
    /// back: its parent here is a shell, started with the command
    /// `JackServerProcess` uses, and killed with SIGKILL.
    func testAServerGivesItsSlotBackWhenItsParentIsKilled() throws {
        let before = try ownEntries()
        let serverName = name()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("jack-parent-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pidFile = folder.appendingPathComponent("jackd.pid")

        let parent = Process()
        parent.executableURL = URL(fileURLWithPath: "/bin/sh")
        parent.arguments = ["-c", "\"$@\" & echo $! > '\(pidFile.path)'; wait", "sh"]
            + JackServerProcess.launchCommand(executable: "/usr/bin/jackd",
                                              arguments: ["-n", serverName, "-r", "-d", "dummy", "-r", "48000", "-p", "256"])
        parent.environment = JackServerProcess.environment
        parent.standardOutput = FileHandle.nullDevice
        parent.standardError = FileHandle.nullDevice
        try parent.run()
        defer { if parent.isRunning { parent.terminate() } }

        XCTAssertTrue(eventually(within: 20) { (try? JackServerRegistry.read().entry(for: serverName))?.isAlive == true },
                      "the server must start and claim a slot")
        let jackd = try XCTUnwrap(Int32(String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        XCTAssertEqual(try JackServerRegistry.read().entry(for: serverName)?.pid, jackd)

        kill(parent.processIdentifier, SIGKILL)
        parent.waitUntilExit()
        XCTAssertTrue(eventually(within: 20) { !Self.isRunning(jackd) }, "jackd must die with its parent")
        XCTAssertTrue(eventually(within: 5) { (try? self.ownEntries()) == before }, "the slot must be free")
        XCTAssertEqual(JackServerRegistry.files(of: serverName), [])
    }

    /// Running and not a zombie (an orphan is reaped by whoever adopted it).
    private static func isRunning(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(after: close)...].hasPrefix(" Z")
    }
}
