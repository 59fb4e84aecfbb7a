import Foundation
import HostCore
import JackIO
import XCTest

/// The JACK connections of fxhost's ports come back as they were after an
/// engine restart, whoever made them: JACK's own example clients
/// (`jack_connect`, `jack_disconnect`) change them while fxhost plays, a
/// plugin crashes the engine, and `jack_lsp -c` lists the same connections
/// of fxhost's ports after the restart as before the crash. The oracle is
/// what JACK's own tools say, before and after.
final class SupervisedConnectionsRunTests: XCTestCase {
    /// Made by another program: `system:capture_2 → fxhost:in` and
    /// `fxhost:main → system:playback_2`; broken by another program: the
    /// patch's own `fxhost:main → system:playback_1`. After the restart the
    /// two made are there again, and the broken one, which the patch
    /// declares, stays broken.
    func testConnectionsMadeAndBrokenByOtherProgramsComeBackAfterARestart() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(name)
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        let patch = folder.appendingPathComponent("wired.yaml").path
        try """
        fxhost: 1
        nodes:
          in:   { input: [system:capture_1] }
          bad:  { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 1000000 } }
          main: { output: [system:playback_1] }
        chain: [in, bad, main]
        """.write(toFile: patch, atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet", "--duration", "300s"],
                              console: true,
                              environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        let patchMade = ["fxhost:in": ["system:capture_1"], "fxhost:main": ["system:playback_1"]]
        XCTAssertTrue(eventually(within: 60) { Self.fxhostConnections(server) == patchMade },
                      "the patch's connections: \(Self.fxhostConnections(server)) \(run.stderr)")

        try jack(server, "jack_connect", "system:capture_2", "fxhost:in")
        try jack(server, "jack_connect", "fxhost:main", "system:playback_2")
        try jack(server, "jack_disconnect", "fxhost:main", "system:playback_1")
        let before = ["fxhost:in": ["system:capture_1", "system:capture_2"], "fxhost:main": ["system:playback_2"]]
        XCTAssertTrue(eventually(within: 30) { Self.fxhostConnections(server) == before },
                      "\(Self.fxhostConnections(server))")

        run.type("set bad after 0")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("the engine restarted without it") }, run.stderr)
        XCTAssertTrue(eventually(within: 30) { Self.fxhostConnections(server) == before },
                      "after the restart: \(Self.fxhostConnections(server)), before the crash: \(before)")
        let listing = try XCTUnwrap(Self.listing(server))
        XCTAssertEqual(PipeWireRunTests.connections(listing)["system:playback_1"], [],
                       "the connection broken before the crash stays broken: \(listing)")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    // MARK: Helpers

    /// Runs one of JACK's example clients on `server`, which must succeed.
    private func jack(_ server: JackServerProcess, _ tool: String, _ arguments: String...,
                      file: StaticString = #filePath, line: UInt = #line) throws {
        let result = try Tools.run(tool, arguments, environment: ["JACK_DEFAULT_SERVER": server.name])
        XCTAssertEqual(result.status, 0, "\(tool) \(arguments): \(result.stderr)", file: file, line: line)
    }

    private static func listing(_ server: JackServerProcess) -> String? {
        guard let result = try? Tools.run("jack_lsp", ["-c"], environment: ["JACK_DEFAULT_SERVER": server.name]),
              result.status == 0 else { return nil }
        return result.stdout
    }

    /// `jack_lsp -c`'s connections of fxhost's ports, each list sorted.
    private static func fxhostConnections(_ server: JackServerProcess) -> [String: [String]] {
        guard let listing = listing(server) else { return [:] }
        return PipeWireRunTests.connections(listing).filter { $0.key.hasPrefix("fxhost:") }.mapValues { $0.sorted() }
    }
}
