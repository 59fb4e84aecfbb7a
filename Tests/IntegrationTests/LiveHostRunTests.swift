import Foundation
import HostCore
import JackIO
import XCTest

/// `fxhost run` as one live host with many front ends: the console's `show`
/// and JSON commands, OSC's JSON, every front end's refusal shown on the
/// console, and a loop that sleeps until something happens.
final class LiveHostRunTests: XCTestCase {
    /// `show amp` prints the parameter with its value, range and default
    /// (eg-amp's manifest, as lv2info prints it: gain -90 … 24, default 0),
    /// and a JSON `state` line is answered with the same in the protocol's JSON.
    func testShowAndStateDescribeTheSessionAsItIs() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try LiveRunTests.writeAmpPatch(folder, seconds: 8)
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.3), run.stderr)
        run.type("set amp gain -6")
        run.type("show amp")
        run.type("show")
        run.type(#"{"v": 1, "cmd": "state", "node": "amp"}"#)
        run.type(#"{"v": 1, "cmd": "tempo", "bpm": "fast"}"#)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let lines = run.stdout.split(separator: "\n").map(String.init)
        // eg-amp's gain is in dB (units:db in its manifest).
        XCTAssertTrue(lines.contains("  gain  -6 dB  [-90 … 24 dB], default 0  Gain"), run.stdout + run.stderr)
        XCTAssertTrue(lines.contains("nodes:") && lines.contains("connections:") && lines.contains("  dc → amp")
                      && lines.contains("  amp → main"), run.stdout)
        XCTAssertTrue(lines.contains { $0.hasPrefix("  amp → ") && $0.contains("take.wav: recording 0:") },
                      "the tap and its time: \(run.stdout)")

        let replies = lines.filter { $0.hasPrefix("{") }.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        XCTAssertEqual(replies.count, 2, run.stdout)
        guard replies.count == 2 else { return }
        XCTAssertEqual(replies[0]["v"] as? Int, 1)
        XCTAssertEqual(replies[0]["ok"] as? Bool, true)
        let nodes = (replies[0]["state"] as? [String: Any])?["nodes"] as? [[String: Any]]
        let gain = (nodes?.first?["parameters"] as? [[String: Any]])?.first { $0["symbol"] as? String == "gain" }
        XCTAssertEqual(nodes?.first?["name"] as? String, "amp")
        XCTAssertEqual(nodes?.first?["plugin"] as? String, "http://lv2plug.in/plugins/eg-amp")
        XCTAssertEqual(gain?["value"] as? Double, -6)
        XCTAssertEqual(gain?["minimum"] as? Double, -90)
        XCTAssertEqual(gain?["maximum"] as? Double, 24)
        XCTAssertEqual(gain?["defaultValue"] as? Double, 0)
        XCTAssertEqual(gain?["scale"] as? String, "linear")
        XCTAssertEqual(gain?["unit"] as? String, "dB")
        XCTAssertEqual(replies[1]["ok"] as? Bool, false)
        XCTAssertEqual(replies[1]["error"] as? String, "`tempo` takes `bpm` as a number")
    }

    /// A command refused over OSC is also shown on the operator's console,
    /// with its source; and `/fxhost/json` (python-osc) carries a JSON
    /// command whose reply comes back as JSON.
    func testOSCRefusalsShowOnTheConsoleAndJSONRidesOverOSC() throws {
        let (server, folder, port, run) = try OSCRunTests.startAmpRun()
        defer { withExtendedLifetime(server) {} }
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let client = try Tools.run("python3", ["-c", OSCRunTests.clientStart + """
            send("/fxhost/set", "amp", "gian", 3.0)
            reply()
            send("/fxhost/json", '{"v": 1, "cmd": "set", "node": "amp", "param": "gain", "value": -6}')
            reply()
            """, "\(port)"])
        XCTAssertEqual(client.status, 0, client.stderr)
        let replies = OSCRunTests.replies(client.stdout)
        XCTAssertEqual(replies.count, 2, client.stdout)
        guard replies.count == 2 else { return }
        XCTAssertEqual(replies[0].first as? String, "/fxhost/error")
        XCTAssertEqual(replies[1].first as? String, "/fxhost/json")
        let reply = (replies[1].last as? String).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        XCTAssertEqual(reply?["ok"] as? Bool, true, "\(replies[1])")
        let change = (reply?["changes"] as? [[String: Any]])?.first
        XCTAssertEqual(change?["event"] as? String, "parameter")
        XCTAssertEqual(change?["value"] as? Double, -6)
        XCTAssertEqual((change?["source"] as? String)?.hasPrefix("osc:127.0.0.1:"), true, "\(String(describing: change))")

        XCTAssertTrue(run.waitForRuns(path("take.wav"), count: 2, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let refusal = run.stderr.split(separator: "\n").first { $0.contains("has no parameter `gian`") }
        XCTAssertNotNil(refusal, run.stderr)
        XCTAssertEqual(refusal?.hasPrefix("fxhost: error: osc:127.0.0.1:"), true, "with its source: \(run.stderr)")
        XCTAssertEqual(refusal?.contains(" refused: "), true, run.stderr)
    }

    /// Nothing to do, nothing done: with no status line, meters or MIDI, the
    /// host's thread sleeps until something happens, where a loop that polls
    /// every 20 ms would wake 50 times a second. Counted from outside, as the
    /// kernel's voluntary context switches of the main thread.
    func testAnIdleHostSleeps() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.5), run.stderr)
        let pid = run.processIdentifier
        func switches() -> Int? {
            guard let status = try? String(contentsOfFile: "/proc/\(pid)/task/\(pid)/status", encoding: .utf8),
                  let line = status.split(separator: "\n").first(where: { $0.hasPrefix("voluntary_ctxt_switches:") }) else {
                return nil
            }
            return Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces))
        }
        let before = switches()
        Thread.sleep(forTimeInterval: 2)
        let after = switches()
        XCTAssertNotNil(before)
        if let before, let after {
            XCTAssertLessThan(after - before, 10, "the host's thread woke \(after - before) times in 2 s with nothing to do")
        }
        // And it still wakes at once for a command.
        run.type("set amp gain -6")
        XCTAssertTrue(run.waitForRuns(path("take.wav"), count: 2, lastAtLeast: 4_800), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }
}
