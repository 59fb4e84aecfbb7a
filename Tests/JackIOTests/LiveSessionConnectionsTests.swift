import Foundation
import HostCore
@testable import JackIO
import TestSupport
import XCTest

/// The session's connections as a whole (what a supervisor keeps across an
/// engine restart), judged by JACK's own `jack_lsp -c` and changed by its
/// `jack_connect`, on a private dummy server.
final class LiveSessionConnectionsTests: XCTestCase {
    /// `system:capture_1 → fx:in` and `fx:main → system:playback_1`, as the patch says, started and connected.
    private func startSession(_ server: JackServerProcess) throws -> LiveSession {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: ["system:capture_1"])
        let main = try graph.addOutput("main", channels: 1, ports: ["system:playback_1"])
        try graph.connect(input, to: main)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server, clientName: "fx"))
        try session.start()
        try session.connectPorts()
        return session
    }

    /// Another program's connection raises the flag, and the session then
    /// reads every connection of its ports as `jack_lsp -c` lists them.
    func testAConnectionMadeByAnotherProgramIsSeenAndRead() throws {
        let server = try JackServerProcess(bufferFrames: 256)
        let session = try startSession(server)
        defer { try? session.finish() }
        _ = session.takeConnectionChange()
        XCTAssertEqual(try Self.run(server, "jack_connect", "fx:main", "system:playback_2"), 0)
        XCTAssertTrue(eventually(within: 30) { session.takeConnectionChange() }, "the port-connect callback's flag")
        XCTAssertTrue(eventually(within: 30) { Self.pairs(in: session.portConnections) == Self.listed(server) },
                      "\(session.portConnections) against \(Self.listed(server))")
        XCTAssertEqual(Self.listed(server), ["system:capture_1 → fx:in", "fx:main → system:playback_1",
                                             "fx:main → system:playback_2"].sorted())
    }

    /// Remade from another client's record (named `old`): what it lists is
    /// made under this client's name, what it does not list is broken (the
    /// patch's own connections included), and a port that is gone is
    /// skipped and returned, without failing.
    func testConnectionsAreRemadeAsRecordedAndAGonePortIsSkipped() throws {
        let server = try JackServerProcess(bufferFrames: 256)
        let session = try startSession(server)
        defer { try? session.finish() }
        let record = JackConnections(client: "old", connections: [
            .init(source: "system:capture_2", destination: "old:in"),
            .init(source: "ghost:out", destination: "old:in"),
            .init(source: "old:main", destination: "system:playback_2"),
        ])
        let skipped = session.remakeConnections(record)
        XCTAssertEqual(skipped, [.init(source: "ghost:out", destination: "fx:in")])
        XCTAssertTrue(eventually(within: 30) {
            Self.listed(server) == ["system:capture_2 → fx:in", "fx:main → system:playback_2"].sorted()
        }, "\(Self.listed(server))")
    }

    // MARK: Helpers

    private static func pairs(in connections: JackConnections) -> [String] {
        connections.connections.map { "\($0.source) → \($0.destination)" }.sorted()
    }

    /// The connections of fx's ports as `jack_lsp -c` lists them, as "output → input", sorted.
    private static func listed(_ server: JackServerProcess) -> [String] {
        guard let listing = try? output(server, "jack_lsp", "-c") else { return [] }
        var pairs = Set<String>()
        var port: String?
        for line in listing.split(separator: "\n") {
            if line.hasPrefix(" ") || line.hasPrefix("\t") {
                let other = line.trimmingCharacters(in: .whitespaces)
                guard let port, port.hasPrefix("fx:") || other.hasPrefix("fx:") else { continue }
                // jack_lsp lists each connection under both ports; fx's inputs are `in`.
                let portIsInput = port == "fx:in" || port.hasPrefix("system:playback")
                pairs.insert(portIsInput ? "\(other) → \(port)" : "\(port) → \(other)")
            } else {
                port = String(line)
            }
        }
        return pairs.sorted()
    }

    @discardableResult
    private static func run(_ server: JackServerProcess, _ tool: String, _ arguments: String...) throws -> Int32 {
        try launch(server, tool, arguments).status
    }

    private static func output(_ server: JackServerProcess, _ tool: String, _ arguments: String...) throws -> String {
        try launch(server, tool, arguments).output
    }

    private static func launch(_ server: JackServerProcess, _ tool: String, _ arguments: [String]) throws
        -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["JACK_DEFAULT_SERVER": server.name]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}
