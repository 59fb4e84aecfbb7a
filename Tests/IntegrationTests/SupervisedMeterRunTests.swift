import Foundation
import TestSupport
import XCTest

/// In a supervised `fxhost run` the peak meters cross in shared memory:
/// the engine's realtime thread raises cells the supervisor alone takes.
/// A constant 0.5 plays through the crashing test plugin (which passes its
/// input through until it crashes) to a mono output, on a private dummy
/// server. The oracles: 20·log10(0.5) = -6.0206 dBFS, read by python-osc
/// subscribers and in `status --json`; and strace's record of what the
/// supervisor wrote to its engine.
final class SupervisedMeterRunTests: XCTestCase {
    private static let level = 20 * log10(0.5)

    /// With eg-amp set 6 dB down, two OSC subscribers at 20 meters a second
    /// each hear that level (-12.04 dBFS) in every message before a crash,
    /// and in each of the last 15 of 30 after it (so neither takes the
    /// other's peaks, and the readers outlive the engine); `status --json`
    /// gives it as the recent peak, and as the maximum the level before the
    /// set (-6.02 dBFS), after the crash too: the maximum since the run
    /// started, which a new engine never heard.
    func testTwoSubscribersAndTheStatusHearTheLevelBeforeAndAfterACrash() throws {
        // It crashes by itself 8 s in (1,500 blocks of 256 frames at 48 kHz), while they listen.
        let (_, _, port, run) = try startRun(after: 1_500)
        try assertStatusPeaks(run, "before the crash")
        // 6 dB down: the maximum since the run started stays the louder level, through the crash.
        run.type("set amp gain -6")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("amp:gain = -6.0") }, run.stdout + run.stderr)
        try assertStatusPeaks(run, "6 dB down", peak: Self.level - 6)
        let client = try Tools.run("python3", ["-c", Self.twoSubscribers, "\(port)", "\(Self.level - 6)"])
        XCTAssertEqual(client.status, 0, "python-osc (scripts/install-deps.sh) must be installed: \(client.stderr) \(run.stderr)")
        let lines = client.stdout.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.filter { $0.hasPrefix("crashed") }.sorted(), ["crashed first", "crashed second"], client.stdout)
        for phase in ["before", "after"] {
            for subscriber in ["first", "second"] {
                var values = lines.filter { $0.hasPrefix("\(phase) \(subscriber) ") }.compactMap { Double($0.split(separator: " ")[2]) }
                XCTAssertGreaterThanOrEqual(values.count, phase == "after" ? 30 : 10, "\(phase) \(subscriber): \(client.stdout)")
                // After the crash, the last 15 (0.75 s): the gap's silence, and the file source's refill, are before them.
                if phase == "after" { values = Array(values.suffix(15)) }
                for value in values {
                    XCTAssertEqual(value, Self.level - 6, accuracy: 0.01, "\(phase) \(subscriber): \(client.stdout)")
                }
            }
        }
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains("the engine restarted") }, run.stderr)
        try assertStatusPeaks(run, "after the crash", peak: Self.level - 6)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    /// While a subscriber reads meters 20 times a second and the status is
    /// asked for, the supervisor sends its engine no meter request: strace
    /// records every `sendto` of the run, and the link's requests are
    /// there (the state snapshot's), but none for meters or meter readers.
    func testMetersAreNotAskedOfTheEngine() throws {
        let folder = try Tools.temporaryFolder(name)
        let trace = folder.appendingPathComponent("trace.txt").path
        let (_, _, port, run) = try startRun(folder: folder, launcher: ["/usr/bin/strace", "-f", "--seccomp-bpf", "-e", "trace=sendto",
                                                                       "-s", "200", "-o", trace, "--"])
        let client = try Tools.run("python3", ["-c", OSCRunTests.clientStart + """
            send("/fxhost/subscribe", 20.0)
            heard = 0
            while heard < 20:
                message = OscMessage(sock.recvfrom(65536)[0])
                if message.address == "/fxhost/meters":
                    heard += 1
                    print(message.params[1], flush=True)
            send("/fxhost/unsubscribe")
            """, "\(port)"])
        XCTAssertEqual(client.status, 0, client.stderr)
        for line in client.stdout.split(separator: "\n").dropFirst() {
            XCTAssertEqual(Double(line) ?? 0, Self.level, accuracy: 0.01, client.stdout)
        }
        try assertStatusPeaks(run, "under strace")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let sent = try String(contentsOfFile: trace, encoding: .utf8).split(separator: "\n")
        // strace writes the request {"snapshot":{}} (sent as each engine starts) as {\"snapshot\":{}}.
        XCTAssertTrue(sent.contains { $0.contains(#"{\"snapshot\":{}}"#) }, "the link's requests are traced: \(sent.prefix(20))")
        let meterRequests = sent.filter {
            $0.contains("addMeterReader") || $0.contains(#"\"meters\":{"#) || $0.contains(#"\"tapMeters\":{"#)
        }
        XCTAssertEqual(meterRequests.count, 0, "\(meterRequests.prefix(5))")
    }

    // MARK: Helpers

    /// `status --json` gives `peak` (the constant's level unless said) as the output's peak since the last
    /// status, and the constant's level as its maximum since the run started.
    private func assertStatusPeaks(_ run: LiveRun, _ when: String, peak: Double = level,
                                   file: StaticString = #filePath, line: UInt = #line) throws {
        // Peaks since the previous status: asked again until a whole period between two is of the level
        // (a set takes a block or two to reach the realtime thread).
        var output: [String: Any] = [:]
        XCTAssertTrue(eventually(within: 30) {
            output = (self.ask(run, "status --json")?["outputs"] as? [[String: Any]])?.first ?? [:]
            return abs(((output["peakDecibels"] as? [Double])?.first ?? 0) - peak) < 0.01
        }, "\(when): \(output) \(run.stderr)", file: file, line: line)
        XCTAssertEqual(output["node"] as? String, "main", file: file, line: line)
        XCTAssertEqual((output["maximumDecibels"] as? [Double])?.first ?? 0, Self.level, accuracy: 0.01, "\(when): \(output)",
                       file: file, line: line)
    }

    /// Types a question answered in pretty JSON and returns the answer once it is printed.
    private func ask(_ run: LiveRun, _ question: String) -> [String: Any]? {
        let before = LiveRun.prettyJSONDocuments(in: run.stdout).count
        run.type(question)
        guard eventually(within: 60, { LiveRun.prettyJSONDocuments(in: run.stdout).count > before }) else { return nil }
        let text = LiveRun.prettyJSONDocuments(in: run.stdout)[before]
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
    }

    /// `fxhost run --osc PORT` of dc (0.5) → amp (eg-amp, 0 dB) → bad (the crashing plugin, crashing `after` blocks) → main, tapped;
    /// started with the console, once the take is under way.
    private func startRun(folder: URL? = nil, after: Int = 1_000_000, launcher: [String] = []) throws
        -> (server: JackServerProcess, folder: URL, port: UInt16, run: LiveRun) {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try folder ?? Tools.temporaryFolder(name)
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try Audio.constant([0.5], frames: 48_000 * 120).write(folder.appendingPathComponent("dc.wav").path)
        try """
        fxhost: 1
        nodes:
          dc:   { file: dc.wav }
          amp:  { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
          bad:  { plugin: "\(CrashingPlugins.crashInRun)", params: { after: \(after) } }
          main: { output: 1 }
        chain: [dc, amp, bad, main]
        taps:
          - { at: main, file: take.wav }
        """.write(toFile: folder.appendingPathComponent("meters.yaml").path, atomically: true, encoding: .utf8)
        let port = try OSCRunTests.freeUDPPort()
        let run = try LiveRun(["run", folder.appendingPathComponent("meters.yaml").path, "--server", server.name, "--no-connect",
                               "--quiet", "--duration", "300s", "--osc", "\(port)"],
                              console: true,
                              environment: ["LV2_PATH": plugins.path + ":/usr/lib/lv2", "TMPDIR": folder.path],
                              launcher: launcher)
        XCTAssertTrue(run.waitForTap(folder.appendingPathComponent("take.wav").path, seconds: 0.3), run.stderr)
        return (server, folder, port, run)
    }

    /// Python: two subscribers (a socket each) at 20 meters a second.
    /// Prints "before first|second DB" for each meter of `main` until the
    /// crash is announced to it ("crashed first|second"), then "after …"
    /// until each has 30 more. The first meters of each subscriber (since
    /// its subscription, maybe less than a period) are not printed.
    private static let twoSubscribers = OSCRunTests.clientStart + """
        import select
        second = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        second.bind(("127.0.0.1", 0))
        for on in (sock, second):
            builder = OscMessageBuilder(address="/fxhost/subscribe")
            builder.add_arg(20.0)
            on.sendto(builder.build().dgram, fxhost)
        names = {sock: "first", second: "second"}
        skip = {sock: 1, second: 1}
        after = {sock: 0, second: 0}
        crashed = {sock: False, second: False}
        # After the crash, 30 readings each, or more while the last 15 are not yet the level (a restart
        # slowed by a loaded machine), up to 10 s of them: the test judges the last 15.
        level, recent = float(sys.argv[2]), {sock: [], second: []}
        def heard_enough(on):
            return after[on] >= 200 or (after[on] >= 30 and all(abs(value - level) <= 0.01 for value in recent[on][-15:]))
        while not all(heard_enough(on) for on in (sock, second)):
            readable, _, _ = select.select([sock, second], [], [], 60)
            if not readable:
                sys.exit("no message for 60 s")
            for on in readable:
                message = OscMessage(on.recvfrom(65536)[0])
                if message.address == "/fxhost/crashed":
                    crashed[on] = True
                    print("crashed", names[on], flush=True)
                if message.address != "/fxhost/meters" or message.params[0] != "main":
                    continue
                if skip[on] > 0:
                    skip[on] -= 1
                    continue
                if crashed[on]:
                    after[on] += 1
                    recent[on].append(message.params[1])
                print("after" if crashed[on] else "before", names[on], message.params[1], flush=True)
        """
}
