import Foundation
import HostCore
import JackIO
import XCTest

/// `fxhost run --osc` driven by OSC clients no one here wrote (liblo's
/// `oscsend`, python-osc), on a private dummy JACK server, judged by a tap
/// of the amplifier they control and by what fxhost sends back.
final class OSCRunTests: XCTestCase {
    /// `/fxhost/set amp gain f -6` from `oscsend` scales eg-amp's output by
    /// 10^(-6/20) = ×0.501187, measured on a tap of the amp.
    func testOscsendSetChangesTheTappedLevel() throws {
        let (server, folder, port, run) = try Self.startAmpRun()
        defer { withExtendedLifetime(server) {} }  // the server runs until the test ends
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let sent = try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/set", "ssf", "amp", "gain", "-6"])
        XCTAssertEqual(sent.status, 0, "oscsend (liblo-tools) must be installed: \(sent.stderr)")
        XCTAssertTrue(run.waitForRuns(path("take.wav"), count: 2, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("amp:gain = -6.0"), "the console echoes an OSC change: \(run.stdout)")

        try assertFullLevelThenMinusSixDecibels(path("take.wav"))
    }

    /// python-osc sends a malformed packet, an unknown address, wrong types
    /// and a name the session refuses: each is answered with `/fxhost/error`
    /// and the run goes on; a subscriber then hears a valid `/fxhost/set` as
    /// `/fxhost/param`, the tap shows it, `/fxhost/status` answers the
    /// status JSON with the ignored messages counted, and a set sent by
    /// another client (oscsend) reaches the subscriber as well.
    func testPythonOSCErrorsAreAnsweredAndTheRunGoesOn() throws {
        let (server, folder, port, run) = try Self.startAmpRun()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let client = try Tools.run("python3", ["-c", Self.pythonClient, "\(port)"])
        XCTAssertEqual(client.status, 0, "python-osc (scripts/install-deps.sh) must be installed: \(client.stderr)")
        let replies = Self.replies(client.stdout)
        XCTAssertEqual(replies.count, 7, client.stdout)
        guard replies.count == 7 else { return }
        func reply(_ index: Int) -> (String, String) {
            (replies[index][0] as? String ?? "", replies[index].dropFirst().map { "\($0)" }.joined(separator: " "))
        }
        XCTAssertEqual(reply(0).0, "/fxhost/error")
        XCTAssertTrue(reply(0).1.hasPrefix("malformed OSC packet"), reply(0).1)
        XCTAssertEqual(reply(1).0, "/fxhost/error")
        XCTAssertTrue(reply(1).1.hasPrefix("unknown OSC address `/fxhost/volume`"), reply(1).1)
        XCTAssertEqual(reply(2).0, "/fxhost/error")
        XCTAssertEqual(reply(2).1, "/fxhost/bypass takes s:node i:on, not arguments of types `ss`")
        XCTAssertEqual(reply(3).0, "/fxhost/error")
        XCTAssertTrue(reply(3).1.contains("has no parameter `gian` (did you mean `gain`?)"), reply(3).1)
        XCTAssertEqual(reply(4).0, "/fxhost/param")
        XCTAssertEqual(reply(4).1, "amp gain -6.0")
        XCTAssertEqual(reply(5).0, "/fxhost/status")
        let status = try JSONDecoder().decode(LiveStatus.self, from: Data(reply(5).1.utf8))
        XCTAssertEqual(status.oscIgnored, 3, "malformed, unknown address, wrong types; a refused name is not ignored")
        XCTAssertEqual(status.server, server.name)
        XCTAssertEqual(reply(6).0, "/fxhost/param")
        XCTAssertEqual(reply(6).1, "amp gain -6.0")

        XCTAssertTrue(run.waitForRuns(path("take.wav"), count: 2, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        try assertFullLevelThenMinusSixDecibels(path("take.wav"))
    }

    /// Sixty thousand packets that reach the OSC front end's handler
    /// (`/fxhost/unsubscribe`, each waking the host), paced by a status
    /// round trip every 200 (no more than the socket's buffer holds), then `quit`: the run ends with status 0
    /// and its closing summary. A wake-up closure kept in a Mutex gained a
    /// thunk at every packet, so an hour's soak (about 43,000) grew memory
    /// and overflowed the stack when the chain was released at the end.
    func testSixtyThousandPacketsThenQuitEndCleanly() throws {
        let (server, _, port, run) = try Self.startAmpRun(seconds: 120)
        defer { withExtendedLifetime(server) {} }
        let client = try Tools.run("python3", ["-c", Self.clientStart + """
            for hundreds in range(300):
                for _ in range(200):
                    send("/fxhost/unsubscribe")
                send("/fxhost/status")
                while True:
                    address = OscMessage(sock.recvfrom(65536)[0]).address
                    if address == "/fxhost/status":
                        break
            print("sent", flush=True)
            """, "\(port)"])
        XCTAssertEqual(client.status, 0, client.stderr)
        XCTAssertEqual(client.stdout, "sent\n")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 120), 0, run.stderr.suffix(2000).description)
    }

    /// A subscriber that asks for 20 meters a second (python-osc) hears the
    /// output's peak in dBFS: the constant 0.5 at 20·log10(0.5) = -6.0206,
    /// then -6 dB lower after a set, then -inf once the file has ended; and
    /// hears a tap paused and resumed (its seconds standing still between),
    /// and a bounce it asked for start and finish: 3 s of the constant at -6 dB.
    func testSubscribersHearMetersTapPausesAndBounces() throws {
        let (server, folder, port, run) = try Self.startAmpRun(seconds: 3)
        defer { withExtendedLifetime(server) {} }
        let bounce = folder.appendingPathComponent("bounce.wav").path
        // Relative: a path from OSC is resolved inside the patch's folder.
        let client = try Tools.run("python3", ["-c", Self.meterClient, "\(port)", "bounce.wav"])
        XCTAssertEqual(client.status, 0, "python-osc (scripts/install-deps.sh) must be installed: \(client.stderr)")
        let lines = client.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        XCTAssertEqual(lines.map { $0.first ?? "" },
                       ["/fxhost/meters", "/fxhost/param", "/fxhost/meters", "/fxhost/tap/pause", "/fxhost/tap/resume",
                        "/fxhost/meters", "/fxhost/bounce/started", "/fxhost/bounce/finished"], client.stdout)
        guard lines.count == 8, lines.allSatisfy({ $0.count >= 2 }) else { return }
        XCTAssertEqual(lines[0][1], "main")
        XCTAssertEqual(Double(lines[0][2]) ?? 0, 20 * log10(0.5), accuracy: 1e-4, "the constant at full level")
        XCTAssertEqual(Array(lines[1][1...]), ["amp", "gain", "-6.0"])
        XCTAssertEqual(Double(lines[2][2]) ?? 0, 20 * log10(0.5) - 6, accuracy: 1e-4, "-6 dB lower")
        XCTAssertEqual(lines[3][1], "amp")
        XCTAssertTrue(lines[3].count == 4 && lines[3][2].hasSuffix("take.wav"), "\(lines[3])")
        let paused = Double(lines[3].last ?? "") ?? -1, resumed = Double(lines[4].last ?? "") ?? -1
        XCTAssertGreaterThan(paused, 0)
        XCTAssertGreaterThanOrEqual(resumed, paused)
        XCTAssertLessThan(resumed - paused, 0.1, "a paused tap records nothing (at most the block under way)")
        XCTAssertEqual(lines[5][2], "-inf", "silence once the file has ended")
        XCTAssertEqual(Array(lines[6][1...]), [bounce])
        XCTAssertEqual(lines[7].last, bounce)
        XCTAssertGreaterThanOrEqual(Double(lines[7][1]) ?? 0, 3, "the file's 3 s, then the tail")
        let bounced = try Audio.read(bounce).channels[0]
        XCTAssertEqual(LiveRunTests.runs(of: bounced).first?.count, 48_000 * 3)
        XCTAssertEqual(bounced.first ?? 0, 0.5 * 0.501187, accuracy: 1e-6, "the file at the gain set")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    /// `/fxhost/scene s quiet` from `oscsend` switches the patch's scene:
    /// eg-amp to -20 dB, ×0.1 on the tap; the console echoes it.
    func testOscsendSwitchesAScene() throws {
        let (server, folder, port, run) = try Self.startAmpRun(patchEnd: "\nscenes:\n  quiet: { amp: { gain: -20 } }\n")
        defer { withExtendedLifetime(server) {} }
        let take = folder.appendingPathComponent("take.wav").path
        let sent = try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/scene", "s", "quiet"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(run.waitForRuns(take, count: 2, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("scene quiet"), run.stdout)
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.map(\.value).first, 0.5)
        XCTAssertEqual(runs.last?.value ?? 0, 0.05, accuracy: 1e-6, "-20 dB: ×0.1")
    }

    /// `/fxhost/set` then `/fxhost/save` from `oscsend`: the patch file is
    /// written with the value set, in place (its layout kept).
    func testOscsendSavesThePatch() throws {
        let (server, folder, port, run) = try Self.startAmpRun()
        defer { withExtendedLifetime(server) {} }
        let patch = folder.appendingPathComponent("amp.yaml").path
        let before = try String(contentsOfFile: patch, encoding: .utf8)
        XCTAssertEqual(try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/set", "ssf", "amp", "gain", "-6"]).status, 0)
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("amp:gain = -6.0") }, run.stdout + run.stderr)
        XCTAssertEqual(try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/save"]).status, 0)
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("saved the running patch to \(patch)") },
                      run.stdout + run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: patch, encoding: .utf8),
                       before.replacingOccurrences(of: "params: { gain: 0 }", with: "params: { gain: -6 }"))
    }

    /// Over OSC (`oscsend`), `/fxhost/save s victim.txt` and a tap out of
    /// the patch's folder are refused with one sentence each, and the
    /// files stay as they were.
    func testOscsendCannotReplaceFilesOutsideItsRules() throws {
        let (server, folder, port, run) = try Self.startAmpRun()
        defer { withExtendedLifetime(server) {} }
        let victim = folder.appendingPathComponent("victim.txt").path
        try "keep me\n".write(toFile: victim, atomically: true, encoding: .utf8)
        XCTAssertEqual(try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/save", "s", "victim.txt"]).status, 0)
        XCTAssertTrue(eventually(within: 30) {
            run.stderr.contains("`victim.txt` is refused: this command takes a patch (.yaml .yml) from a remote front end")
        }, run.stderr)
        XCTAssertEqual(try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/tap", "ss", "amp", "../x.wav"]).status, 0)
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains("`../x.wav` is refused: a remote front end may not use `..`") },
                      run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep me\n")
        // Neither beside the patch's folder nor beside the working directory.
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("x.wav").path))
        XCTAssertFalse(FileManager.default.fileExists(atPath: FileManager.default.currentDirectoryPath + "/../x.wav"))
    }

    /// A port in use, or an `--osc` that is no port, stops the run before
    /// any sound, with a sentence (no JACK server is needed to see it).
    func testABadOrBusyOSCPortIsRefusedBeforeTheRun() throws {
        let folder = try Tools.temporaryFolder()
        try LiveRunTests.writeAmpPatch(folder, seconds: 8)
        let patch = folder.appendingPathComponent("amp.yaml").path
        let bad = try Tools.run(Tools.fxhost, ["run", patch, "--osc", "localhost:nine"])
        XCTAssertNotEqual(bad.status, 0)
        XCTAssertTrue(bad.stderr.contains("--osc takes PORT or HOST:PORT"), bad.stderr)

        let (holder, port) = try XCTUnwrap(Tools.occupiedLoopbackPort(SOCK_DGRAM))
        defer { close(holder) }
        let busy = try Tools.run(Tools.fxhost, ["run", patch, "--server", "fxhost-no-such-server", "--osc", "\(port)"])
        XCTAssertEqual(busy.status, 1, busy.stderr)
        XCTAssertTrue(busy.stderr.contains("--osc: cannot listen on UDP 127.0.0.1:\(port) (Address already in use)"),
                      busy.stderr)
    }

    /// What every python-osc client here starts with: fxhost's port from
    /// argv[1], a UDP socket of its own (so replies come back to it), and
    /// `send(address, *arguments)`.
    static let clientStart = """
        import json, socket, subprocess, sys
        from pythonosc.osc_message import OscMessage
        from pythonosc.osc_message_builder import OscMessageBuilder
        fxhost = ("127.0.0.1", int(sys.argv[1]))
        sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        sock.settimeout(30)
        sock.bind(("127.0.0.1", 0))
        def send(address, *arguments):
            builder = OscMessageBuilder(address=address)
            for argument in arguments:
                builder.add_arg(argument)
            sock.sendto(builder.build().dgram, fxhost)
        def reply():
            message = OscMessage(sock.recvfrom(65536)[0])
            print(json.dumps([message.address] + list(message.params)), flush=True)

        """

    /// What a client built on `clientStart` printed with `reply()`: each
    /// reply as an array, the address first, then the arguments.
    static func replies(_ output: String) -> [[Any]] {
        output.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [Any] }
    }

    /// Messages built and replies read by python-osc; a plain UDP socket
    /// carries them so the replies come back to it. Prints each reply as a
    /// JSON array: the address, then the arguments.
    private static let pythonClient = clientStart + """
        send("/fxhost/subscribe")
        sock.sendto(b"/fxhost/set\\0,ss", fxhost)  # cut short inside its type tags
        reply()
        send("/fxhost/volume", -6.0)
        reply()
        send("/fxhost/bypass", "amp", "on")
        reply()
        send("/fxhost/set", "amp", "gian", -6.0)
        reply()
        send("/fxhost/set", "amp", "gain", -6.0)
        reply()
        send("/fxhost/status")
        reply()
        # A change from another client (another source) reaches this subscriber too; the
        # same value, so the level stays put whenever the realtime thread takes it.
        subprocess.run(["oscsend", "127.0.0.1", sys.argv[1], "/fxhost/set", "ssf", "amp", "gain", "-6"], check=True)
        reply()
        """

    /// Subscribes with 20 meters a second and prints, address first, the
    /// messages it waited for: full-level meters, a set's echo and the
    /// meters after it, a tap's pause and resume, meters of silence.
    private static let meterClient = clientStart + """
        def wait_for(address, accept=lambda params: True):
            while True:
                message = OscMessage(sock.recvfrom(65536)[0])
                if message.address == "/fxhost/error":
                    sys.exit("error: " + str(message.params))
                if message.address == address and accept(message.params):
                    print(" ".join([message.address] + [str(p) for p in message.params]), flush=True)
                    return message.params
        send("/fxhost/subscribe", 20.0)
        wait_for("/fxhost/meters", lambda p: p[0] == "main" and p[1] > -7)
        send("/fxhost/set", "amp", "gain", -6.0)
        wait_for("/fxhost/param")
        wait_for("/fxhost/meters", lambda p: p[0] == "main" and -13 < p[1] < -11)
        send("/fxhost/tap/pause", "amp")
        wait_for("/fxhost/tap/pause")
        send("/fxhost/tap/resume", "amp")
        wait_for("/fxhost/tap/resume")
        wait_for("/fxhost/meters", lambda p: p[0] == "main" and p[1] == float("-inf"))
        send("/fxhost/bounce", sys.argv[2])
        wait_for("/fxhost/bounce/started")
        wait_for("/fxhost/bounce/finished")
        send("/fxhost/unsubscribe")
        """


    /// `fxhost run --osc PORT` of the amp patch on a private server, its tap
    /// already recording.
    /// `patchEnd` is added to the patch's text (a `scenes:` section).
    static func startAmpRun(seconds: Int = 8, patchEnd: String = "", testName: String = #function) throws
        -> (server: JackServerProcess, folder: URL, port: UInt16, run: LiveRun) {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(testName)
        try LiveRunTests.writeAmpPatch(folder, seconds: seconds)
        if !patchEnd.isEmpty {
            let patch = folder.appendingPathComponent("amp.yaml").path
            try (String(contentsOfFile: patch, encoding: .utf8) + patchEnd).write(toFile: patch, atomically: true, encoding: .utf8)
        }
        let port = try Self.freeUDPPort()
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", folder.appendingPathComponent("amp.yaml").path, "--server", server.name,
                               "--quiet", "--osc", "\(port)"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.7), run.stderr)
        return (server, folder, port, run)
    }

    /// The take of the amp patch (a constant 0.5): full level, then the
    /// OSC set's -6 dB (×0.501187), and nothing else.
    private func assertFullLevelThenMinusSixDecibels(_ take: String, file: StaticString = #filePath,
                                                     line: UInt = #line) throws {
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.count, 2, "full level, then -6 dB: \(runs.map { ($0.value, $0.count) })", file: file, line: line)
        guard runs.count == 2 else { return }
        XCTAssertEqual(runs[0].value, 0.5, file: file, line: line)
        XCTAssertEqual(runs[1].value, 0.5 * 0.501187, accuracy: 1e-6, file: file, line: line)
    }

    /// A UDP port of 127.0.0.1 no one holds now: the kernel picks it.
    static func freeUDPPort() throws -> UInt16 {
        let probe = socket(AF_INET, Int32(SOCK_DGRAM.rawValue), 0)
        defer { close(probe) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let found = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(probe, $0, size) == 0 && getsockname(probe, $0, &size) == 0
            }
        }
        guard found else { throw POSIXError(.EADDRNOTAVAIL) }
        return UInt16(bigEndian: address.sin_port)
    }
}
