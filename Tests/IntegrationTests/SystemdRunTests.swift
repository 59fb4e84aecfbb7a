import Foundation
import XCTest

/// `fxhost run` under systemd's notify protocol, with the test playing
/// systemd's part: a Python listener (not fxhost's code) binds the
/// datagram socket `$NOTIFY_SOCKET` names, records each message with the
/// sender's process id as the kernel reports it (SO_PASSCRED, what
/// systemd's `NotifyAccess=main` checks), and the moment READY=1 arrives
/// asks the JACK server which ports and connections exist: through a
/// client of the Python JACK-Client module (Debian's python3-jack-client)
/// open before fxhost starts, then with `jack_lsp -c`. And the unit in contrib/ checked by systemd's own reader.
final class SystemdRunTests: XCTestCase {
    /// READY=1 from fxhost's own process once its ports exist and are
    /// connected; WATCHDOG=1 again and again at about half of
    /// WATCHDOG_USEC, on a host with nothing else to wake it (--quiet, a
    /// console on a pipe); STOPPING=1 on `quit`, last; exit 0.
    func testReadyComesOncePlayingThenPingsThenStopping() throws {
        let server = try startJackServer()
        let folder = try makeScratchFolder(prefix: "fxhost-systemd")
        let socketPath = try Self.shortSocketPath()
        let systemd = try FakeSystemd(address: socketPath, server: server.name)
        let patch = try Self.writeLiveAmpPatch(folder)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet"], console: true,
                              environment: ["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "200000"])

        XCTAssertTrue(eventually(within: 60) { systemd.messages.contains { $0.lines.contains("READY=1") } },
                      run.stderr + systemd.output)
        guard let ready = systemd.messages.first else { return }
        XCTAssertEqual(ready.lines, ["READY=1", "STATUS=playing amp.yaml on the JACK server \(server.name)"])
        XCTAssertEqual(ready.pid, run.processIdentifier, "sent by fxhost's main process")
        // What the server had the moment READY=1 arrived (JACK-Client's
        // client, open already): fxhost's ports, connected as the patch says.
        XCTAssertEqual(ready.connections, ["fxhost:guitar": ["system:capture_1"], "fxhost:main": ["system:playback_1"]])
        // And as jack_lsp lists them just after.
        let listed = Self.connections(inJackLsp: ready.ports ?? "")
        XCTAssertEqual(listed["system:capture_1"], ["fxhost:guitar"], ready.ports ?? "no jack_lsp output")
        XCTAssertEqual(listed["system:playback_1"], ["fxhost:main"], ready.ports ?? "no jack_lsp output")

        // At least five pings, and none bunched (a period of 0.1 s: fewer
        // than one per 0.05 s over the whole stretch; a busy machine can only
        // spread them, so that bound cannot fail for load).
        XCTAssertTrue(eventually(within: 60) { systemd.messages.filter { $0.lines == ["WATCHDOG=1"] }.count >= 5 },
                      systemd.output)
        let pings = systemd.messages.filter { $0.lines == ["WATCHDOG=1"] }
        if let first = pings.first, let last = pings.last, pings.count >= 5 {
            XCTAssertGreaterThan(last.time - first.time, Double(pings.count - 1) * 0.05, "pings bunched: \(pings.map(\.time))")
            XCTAssertTrue(pings.allSatisfy { $0.pid == run.processIdentifier })
        }

        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(eventually(within: 10) { systemd.messages.last?.lines == ["STOPPING=1"] }, systemd.output)
        XCTAssertEqual(systemd.messages.filter { $0.lines.contains("READY=1") }.count, 1)
        XCTAssertFalse(run.stderr.contains("warning"), run.stderr)
    }

    /// `@NAME`: a socket in the abstract namespace, bound by Python as
    /// "\0NAME". No WATCHDOG_USEC, no pings; SIGTERM brings STOPPING=1 and
    /// exit 0.
    func testAnAbstractSocketHearsReadyAndStoppingOnSIGTERM() throws {
        let server = try startJackServer()
        let folder = try makeScratchFolder(prefix: "fxhost-systemd")
        let name = "@fxhost-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let systemd = try FakeSystemd(address: name, server: server.name)
        let patch = try Self.writeLiveAmpPatch(folder)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet"], environment: ["NOTIFY_SOCKET": name])
        XCTAssertTrue(eventually(within: 60) { systemd.messages.contains { $0.lines.contains("READY=1") } },
                      run.stderr + systemd.output)
        run.kill(SIGTERM)
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(eventually(within: 10) { systemd.messages.last?.lines == ["STOPPING=1"] }, systemd.output)
        XCTAssertEqual(systemd.messages.map(\.lines).first?.first, "READY=1")
        XCTAssertEqual(systemd.messages.count, 2, "READY and STOPPING alone: \(systemd.output)")
        XCTAssertEqual(systemd.messages.first?.pid, run.processIdentifier)
    }

    /// What the environment gets wrong is one warning, and fxhost plays
    /// its whole --duration and exits 0: a relative or overlong
    /// NOTIFY_SOCKET (nothing sent), a socket no one listens on (each
    /// message fails, one warning), and WATCHDOG_USEC that is not a number
    /// of microseconds from 1 ms to 1 day (READY and STOPPING, no pings).
    func testAHostileEnvironmentIsOneWarningAndTheRunPlaysOn() throws {
        let server = try startJackServer()
        let folder = try makeScratchFolder(prefix: "fxhost-systemd")
        let patch = try Self.writeLiveAmpPatch(folder)
        let socketPath = try Self.shortSocketPath()
        let systemd = try FakeSystemd(address: socketPath, server: server.name)
        func run(_ environment: [String: String]) throws -> (status: Int32?, warnings: [String]) {
            let run = try LiveRun(["run", patch, "--server", server.name, "--quiet", "--duration", "1s"],
                                  environment: environment)
            let status = run.waitForExit(seconds: 60)
            let warnings = run.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: warning: ") }.map(String.init)
            XCTAssertFalse(run.stderr.contains("error"), run.stderr)
            return (status, warnings)
        }
        let missing = try Self.shortSocketPath()  // no one binds it
        for (socket, said) in [("relative.sock", "neither an absolute path nor an @name"),
                               ("/" + String(repeating: "a", count: 200), "201 bytes long"),
                               (missing, "did not take a message (No such file or directory)")] {
            let (status, warnings) = try run(["NOTIFY_SOCKET": socket, "WATCHDOG_USEC": "200000"])
            XCTAssertEqual(status, 0, socket)
            XCTAssertEqual(warnings.count, 1, "\(warnings)")
            XCTAssertTrue(warnings.first?.contains(said) == true, "\(warnings)")
        }
        XCTAssertEqual(systemd.messages.count, 0, systemd.output)

        for usec in ["abc", "0", "99999999999999999999"] {
            let heard = systemd.messages.count
            let (status, warnings) = try run(["NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": usec])
            XCTAssertEqual(status, 0, usec)
            XCTAssertEqual(warnings, ["fxhost: warning: $WATCHDOG_USEC `\(usec)` is not a whole number of microseconds from 1000 (1 ms) to 86400000000 (1 day), so the watchdog is not kept"])
            XCTAssertTrue(eventually(within: 10) { systemd.messages.last?.lines == ["STOPPING=1"] && systemd.messages.count > heard },
                          systemd.output)
            XCTAssertEqual(systemd.messages.dropFirst(heard).map { $0.lines[0] }, ["READY=1", "STOPPING=1"], usec)
        }
    }

    /// contrib/fxhost.service and the JACK server's unit beside it read
    /// cleanly with systemd's own reader, `systemd-analyze verify` (silent
    /// when every line parses: it warns of an unknown key or a bad value
    /// but exits 0, so its words are the verdict), with ExecStart= pointed
    /// at a program that exists here. And whether or not that tool is
    /// installed, the lines the service depends on are there, read as
    /// systemd reads them (sections, `Key=value`, `#` comments).
    func testTheServiceUnitParses() throws {
        let contrib = Tools.packageRoot.appendingPathComponent("contrib")
        let unit = try String(contentsOf: contrib.appendingPathComponent("fxhost.service"), encoding: .utf8)
        let service = Self.keys(inUnit: unit)
        for (key, value) in [("Service.Type", "notify"), ("Service.NotifyAccess", "main"), ("Service.WatchdogSec", "10"),
                             ("Service.Restart", "on-failure"), ("Service.LimitRTPRIO", "95"),
                             ("Service.LimitMEMLOCK", "infinity"), ("Service.User", "fxhost"),
                             ("Service.SupplementaryGroups", "audio"), ("Service.StandardError", "journal"),
                             ("Unit.After", "jackd.service"), ("Unit.Requires", "jackd.service")] {
            XCTAssertEqual(service[key], [value], key)
        }
        let start = service["Service.ExecStart"]?.first?.split(separator: " ").map(String.init) ?? []
        XCTAssertEqual(Array(start.prefix(3)), ["/usr/local/bin/fxhost", "run", "/etc/fxhost/patch.yaml"])
        XCTAssertTrue(start.contains("--quiet"), "\(start)")
        // The server it names is the one the JACK unit starts.
        let jack = Self.keys(inUnit: try String(contentsOf: contrib.appendingPathComponent("jackd.service"), encoding: .utf8))
        if let index = start.firstIndex(of: "--server"), index + 1 < start.count {
            XCTAssertTrue(jack["Service.ExecStart"]?.first?.contains("-n \(start[index + 1]) ") == true, "\(jack)")
        } else {
            XCTFail("ExecStart names no --server: \(start)")
        }
        XCTAssertEqual(jack["Service.User"], service["Service.User"], "a JACK server takes clients of its own user")

        // scripts/install-deps.sh installs it (Debian's systemd package): its absence is a failure, not a skip.
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze") else {
            return XCTFail("systemd-analyze is missing: run scripts/install-deps.sh")
        }
        let folder = try makeScratchFolder(prefix: "fxhost-systemd")
        try unit.replacingOccurrences(of: "/usr/local/bin/fxhost", with: Tools.fxhost)
            .write(to: folder.appendingPathComponent("fxhost.service"), atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(at: contrib.appendingPathComponent("jackd.service"),
                                         to: folder.appendingPathComponent("jackd.service"))
        let verified = try Tools.run("/usr/bin/systemd-analyze", ["verify", folder.appendingPathComponent("fxhost.service").path,
                                                                 folder.appendingPathComponent("jackd.service").path])
        XCTAssertEqual(verified.status, 0, verified.stderr)
        XCTAssertEqual(verified.stderr + verified.stdout, "", "systemd-analyze verify had something to say")
    }

    // MARK: helpers

    /// Every `Section.Key` of a unit file and its values in order.
    static func keys(inUnit text: String) -> [String: [String]] {
        var keys: [String: [String]] = [:], section = ""
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") {
                section = String(line.dropFirst().dropLast())
            } else if let equals = line.firstIndex(of: "=") {
                let key = line[..<equals].trimmingCharacters(in: .whitespaces)
                keys["\(section).\(key)", default: []].append(line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces))
            }
        }
        return keys
    }

    /// A live input and output, each connected (so `jack_lsp -c` shows both
    /// connections), through eg-amp.
    static func writeLiveAmpPatch(_ folder: URL) throws -> String {
        let path = folder.appendingPathComponent("amp.yaml").path
        try """
        fxhost: 1
        nodes:
          guitar: { input: [system:capture_1] }
          amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
          main: { output: [system:playback_1] }
        chain: [guitar, amp, main]
        """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// systemd's watchdog is fed through a crash in a live `bounce`, the
    /// longest wait a supervisor has: jackd2 takes some 10 s to leave a
    /// freewheel whose client crashed. With WATCHDOG_USEC at 4 s (a ping
    /// every 2 s), no two pings from READY=1 to the restart may lie 4 s
    /// apart, or systemd would have killed the service. Before, the
    /// supervisor waited in `jack_set_freewheel` and the pings stopped.
    func testTheWatchdogIsFedThroughACrashInABounce() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try makeScratchFolder(prefix: "fxhost-systemd")
        let (patch, plugins) = try CrashingPlugins.writeBounceCrashRig(in: folder)
        let socketPath = try Self.shortSocketPath()
        let systemd = try FakeSystemd(address: socketPath, server: server.name)
        let run = try LiveRun(["run", patch, "--server", server.name, "--no-connect", "--quiet",
                               "--duration", "120s"], console: true,
                              environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path,
                                            "NOTIFY_SOCKET": socketPath, "WATCHDOG_USEC": "4000000"])
        XCTAssertTrue(eventually(within: 60) { systemd.messages.contains { $0.lines.contains("READY=1") } },
                      run.stderr + systemd.output)
        run.type("bounce mix.wav")
        XCTAssertTrue(eventually(within: 90) { run.stderr.contains("the engine restarted without it") }, run.stderr)
        // One more ping after the restart, so the wait is inside the stretch judged.
        let pingsAtRestart = systemd.messages.filter { $0.lines == ["WATCHDOG=1"] }.count
        XCTAssertTrue(eventually(within: 30) { systemd.messages.filter { $0.lines == ["WATCHDOG=1"] }.count > pingsAtRestart },
                      systemd.output)
        let times = systemd.messages.filter { $0.lines.contains("READY=1") || $0.lines == ["WATCHDOG=1"] }.map(\.time)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }
        XCTAssertLessThan(gaps.max() ?? .infinity, 4.0, "systemd would have killed the service: \(gaps)")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    /// A socket path well within sun_path's 108 bytes, whatever the test's
    /// name and the temporary folder; removed when the test ends.
    static func shortSocketPath() throws -> String {
        let path = "/tmp/fxhost-notify-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        unlink(path)
        return path
    }

    /// `jack_lsp -c`'s listing as each port's connections: a port at the
    /// start of a line, what it connects to indented under it.
    static func connections(inJackLsp listing: String) -> [String: [String]] {
        var result: [String: [String]] = [:], port = ""
        for line in listing.split(separator: "\n") {
            if line.hasPrefix(" ") {
                result[port, default: []].append(line.trimmingCharacters(in: .whitespaces))
            } else {
                port = String(line)
            }
        }
        return result
    }
}

/// systemd's side of the notify protocol, played by Python: it binds the
/// socket (a path, or "@NAME" as "\0NAME"), prints each datagram as a JSON
/// line with the sender's pid and Python's monotonic clock, and at READY=1
/// fxhost's ports and their connections as a JACK client open all along
/// sees them at once, then as `jack_lsp -c` lists them.
/// Started through setpriv, so it dies with the test's thread.
private final class FakeSystemd {
    struct Message {
        var lines: [String]
        var pid: Int32?
        var time: Double
        var ports: String?
        var connections: [String: [String]]?
    }

    private let process = Process()
    private let outputFile: URL
    private let address: String

    private static let script = """
        import jack, json, socket, struct, subprocess, sys, time
        address, server = sys.argv[1], sys.argv[2]
        # Open before fxhost starts, so READY=1 is answered within microseconds.
        probe = jack.Client("systemd-probe", servername=server, no_start_server=True)
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_PASSCRED, 1)
        sock.bind("\\0" + address[1:] if address.startswith("@") else address)
        print(json.dumps({"bound": True}), flush=True)
        while True:
            data, ancillary, _, _ = sock.recvmsg(4096, socket.CMSG_SPACE(12))
            pid = None
            for level, kind, payload in ancillary:
                if level == socket.SOL_SOCKET and kind == socket.SCM_CREDENTIALS:
                    pid = struct.unpack("iII", payload[:12])[0]
            lines = data.decode("utf-8", "replace").split("\\n")
            message = {"lines": lines, "pid": pid, "time": time.monotonic()}
            if "READY=1" in lines:
                message["connections"] = {port.name: [other.name for other in probe.get_all_connections(port)]
                                          for port in probe.get_ports("^fxhost:")}
                message["ports"] = subprocess.run(["jack_lsp", "-c", "-s", server],
                                                  capture_output=True, text=True).stdout
            print(json.dumps(message), flush=True)
        """

    init(address: String, server: String) throws {
        self.address = address
        outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("fxhost-systemd-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        let command = JackServerProcess.launchCommand(executable: "/usr/bin/python3", arguments: ["-c", Self.script, address, server])
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = process.standardOutput
        process.standardInput = FileHandle.nullDevice
        try process.run()
        guard eventually(within: 30, { output.contains(#"{"bound": true}"#) || !process.isRunning }), process.isRunning else {
            throw NSError(domain: "FakeSystemd", code: 1, userInfo: [NSLocalizedDescriptionKey: "the listener did not bind: \(output)"])
        }
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outputFile)
        if address.hasPrefix("/") { unlink(address) }
    }

    var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// The messages received so far, in order.
    var messages: [Message] {
        output.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let lines = object["lines"] as? [String], let time = object["time"] as? Double else { return nil }
            return Message(lines: lines, pid: (object["pid"] as? Int).map { Int32($0) }, time: time,
                           ports: object["ports"] as? String, connections: object["connections"] as? [String: [String]])
        }
    }
}
