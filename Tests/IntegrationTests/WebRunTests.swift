import Foundation
import HostCore
import JackIO
import TestSupport
import XCTest

/// `fxhost run --web` driven over HTTP and WebSocket by clients no one here
/// wrote (Python's urllib and http.client, the websocket-client package,
/// a raw socket), on a private dummy JACK server, judged by a tap of the
/// amplifier they control, by the console's own sentences and by what the
/// server answers.
final class WebRunTests: XCTestCase {
    /// The API: the status JSON, a node's parameters as eg-amp's TTL
    /// describes them, a set in the JSON form and one in the `line` form
    /// (the tap shows -6 dB, ×0.501187, then -12 dB, ×0.251189), refusals as 4xx
    /// with the console's sentence, malformed requests counted in the
    /// status, and the events stream: the changes as announced and the
    /// output's and the tapped amp's meters by arithmetic (0.5 is -6.02 dBFS).
    func testTheAPISetsByArithmeticAndRefusesWithTheConsolesSentence() throws {
        let (server, folder, url, run) = try Self.startAmpRun(arguments: [])
        defer { withExtendedLifetime(server) {} }
        let take = folder.appendingPathComponent("take.wav").path
        // The console's sentence for the same refused line, as the oracle for the web's.
        run.type("set amp gian 3")
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains("gian") }, run.stderr)
        // Audio files for the page's menus: a subfolder's, not a hidden one, not a link leading out.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("irs"), withIntermediateDirectories: true)
        for name in ["irs/room.wav", ".hidden.wav", "notes.txt", "../outside.wav"] {
            try Data().write(to: folder.appendingPathComponent(name))
        }
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("link.wav").path,
                                                   withDestinationPath: folder.appendingPathComponent("../outside.wav").path)
        let client = try Tools.run("python3", ["-c", Self.apiClient, url])
        XCTAssertEqual(client.status, 0, "websocket-client (scripts/install-deps.sh) must be installed: \(client.stderr)")
        let answers = Self.lines(client.stdout)
        XCTAssertEqual(answers.count, 12, client.stdout + client.stderr)
        guard answers.count == 12 else { return }
        XCTAssertEqual(Self.object(answers[11]["body"])["files"] as? [String], ["dc.wav", "irs/room.wav", "take.wav"])

        // GET /api/v1/status: the status JSON.
        XCTAssertEqual(answers[0]["status"] as? Int, 200)
        let status = try JSONDecoder().decode(LiveStatus.self, from: Data((answers[0]["body"] as? String ?? "").utf8))
        XCTAssertEqual(status.server, server.name)
        XCTAssertEqual(status.webRefused, 0)

        // GET /api/v1/nodes/amp: eg-amp's gain as its TTL declares it (-90..24 dB, default 0).
        XCTAssertEqual(answers[1]["status"] as? Int, 200)
        let state = Self.object(answers[1]["body"])
        let node = (state["nodes"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(node["name"] as? String, "amp")
        let gain = (node["parameters"] as? [[String: Any]])?.first { $0["symbol"] as? String == "gain" } ?? [:]
        XCTAssertEqual(gain["minimum"] as? Double, -90)
        XCTAssertEqual(gain["maximum"] as? Double, 24)
        XCTAssertEqual(gain["defaultValue"] as? Double, 0)
        XCTAssertEqual(gain["unit"] as? String, "dB")

        // GET /api/v1/nodes/nope: 404 with the session's sentence.
        XCTAssertEqual(answers[2]["status"] as? Int, 404)
        XCTAssertTrue((Self.object(answers[2]["body"])["error"] as? String ?? "").contains("nope"), "\(answers[2])")

        // POST a set in its JSON form: 200 and the change.
        XCTAssertEqual(answers[3]["status"] as? Int, 200)
        XCTAssertEqual(Self.object(answers[3]["body"])["ok"] as? Bool, true)

        // The line form refused: 422 and the console's sentence, word for word.
        XCTAssertEqual(answers[4]["status"] as? Int, 422)
        let sentence = Self.object(answers[4]["body"])["error"] as? String ?? "?"
        XCTAssertTrue(sentence.contains("gian"), sentence)
        XCTAssertTrue(run.stderr.contains("fxhost: error: " + sentence), "the console said: \(run.stderr)")

        // Malformed JSON and an unknown command: 400, counted.
        XCTAssertEqual(answers[5]["status"] as? Int, 400)
        XCTAssertEqual(answers[6]["status"] as? Int, 400)
        XCTAssertTrue((Self.object(answers[6]["body"])["error"] as? String ?? "").contains("there is no command `sett`"), "\(answers[6])")

        // The events stream: the set as announced, from the web, then the meter at -6.02 - 6 dBFS.
        XCTAssertEqual(answers[7]["event"] as? String, "parameter")
        XCTAssertEqual(answers[7]["node"] as? String, "amp")
        XCTAssertEqual(answers[7]["value"] as? Double, -6)
        XCTAssertTrue((answers[7]["source"] as? String ?? "").hasPrefix("web:127.0.0.1:"), "\(answers[7])")
        let meter = ((answers[8]["outputs"] as? [String: Any])?["main"] as? [Double])?.first ?? 0
        XCTAssertEqual(meter, 20 * log10(0.5) - 6, accuracy: 1e-3, "\(answers[8])")
        // The tapped node's own meter rides along: amp's output, the same -6.02 - 6 dBFS.
        let tapped = answers[8]["tapped"] as? [String: Any]
        XCTAssertEqual(tapped?.keys.sorted(), ["amp"], "\(answers[8])")
        XCTAssertEqual((tapped?["amp"] as? [Double])?.first ?? 0, 20 * log10(0.5) - 6, accuracy: 1e-3, "\(answers[8])")

        // A line that works (-12 dB), and the status counts the two malformed requests.
        XCTAssertEqual(answers[9]["status"] as? Int, 200)
        XCTAssertEqual(answers[10]["status"] as? Int, 200)
        let after = try JSONDecoder().decode(LiveStatus.self, from: Data((answers[10]["body"] as? String ?? "").utf8))
        XCTAssertEqual(after.webRefused, 2)

        XCTAssertTrue(run.waitForRuns(take, count: 3, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("amp:gain = -6.0"), "the console echoes a web change: \(run.stdout)")
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.map(\.value).first, 0.5)
        guard runs.count == 3 else { return XCTFail("full, -6 dB, -12 dB: \(runs.map { ($0.value, $0.count) })") }
        XCTAssertEqual(runs[1].value, 0.5 * 0.501187, accuracy: 1e-6)
        XCTAssertEqual(runs[2].value, 0.5 * 0.251189, accuracy: 1e-6, "-12 dB: ×0.251189")
    }

    /// A forged Origin and a foreign Host are refused with 403 (a WebSocket's
    /// handshake with a forged Origin too, with its sentence, no connection opened), an oversized
    /// body with 413, random bytes on the WebSocket close it, and a path
    /// outside the patch's folder is refused as OSC's are; the sound plays
    /// on, and a set afterwards still works. Bound to every interface, a
    /// request without the token is refused with 401 and one with it works.
    func testForgedOriginsHostsOversizedBodiesAndRandomBytesAreRefusedAndTheSoundPlaysOn() throws {
        let (server, folder, url, run) = try Self.startAmpRun(arguments: [])
        defer { withExtendedLifetime(server) {} }
        let take = folder.appendingPathComponent("take.wav").path
        // What the client does that the web front end refuses before the session, each counted once:
        let refusals = ["a POST with a forged Origin", "a GET with Origin null", "a foreign Host", "a WebSocket with a forged Origin",
                        "a body over the limit", "a broken frame (then random bytes)", "a frame over the limit",
                        "a text message the events stream does not take"]
        let client = try Tools.run("python3", ["-c", Self.hostileClient, url, String(refusals.count)])
        XCTAssertEqual(client.status, 0, client.stderr)
        let answers = Self.lines(client.stdout)
        XCTAssertEqual(answers.map { $0["status"] as? Int ?? -1 }, [403, 403, 403, 403, 413, 0, 0, 0, 422, 200, 200],
                       client.stdout + client.stderr)
        guard answers.count == 11 else { return }
        XCTAssertTrue((Self.object(answers[0]["body"])["error"] as? String ?? "").contains("another site"), "\(answers[0])")
        XCTAssertTrue((Self.object(answers[2]["body"])["error"] as? String ?? "").contains("Host header"), "\(answers[2])")
        XCTAssertTrue((Self.object(answers[3]["body"])["error"] as? String ?? "").contains("another site"), "the WebSocket's own sentence: \(answers[3])")
        XCTAssertEqual(answers[5]["closed"] as? Bool, true, "random bytes close the WebSocket")
        XCTAssertEqual(answers[6]["closed"] as? Bool, true, "a frame over the limit closes the WebSocket")
        let notTaken = Self.object(answers[7]["body"])
        XCTAssertEqual(notTaken["event"] as? String, "error", "\(answers[7])")
        XCTAssertTrue((notTaken["error"] as? String ?? "").contains("{\"meters\": HZ}"), "\(answers[7])")
        XCTAssertTrue((Self.object(answers[8]["body"])["error"] as? String ?? "").contains("may not use `..`"), "\(answers[8])")
        // The status counts each refusal once (the tap refused by the session is not the web's).
        let counted = try JSONDecoder().decode(LiveStatus.self, from: Data((answers[10]["body"] as? String ?? "").utf8))
        XCTAssertEqual(counted.webRefused, refusals.count, "\(refusals)")
        // GET /api/v1/status is the console's `status --json`, read right after it in the same run.
        run.type("status --json")
        XCTAssertTrue(eventually(within: 30) { LiveRun.prettyJSONDocuments(in: run.stdout).count == 1 }, run.stdout)
        Self.assertSameStatus(web: answers[10]["body"] as? String ?? "", console: LiveRun.prettyJSONDocuments(in: run.stdout).first ?? "")
        XCTAssertTrue(run.waitForRuns(take, count: 2, lastAtLeast: 24_000), run.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.deletingLastPathComponent().appendingPathComponent("escape.wav").path))

        // Every interface: a token is generated and printed; without it, 401.
        let open = try LiveRun(["run", folder.appendingPathComponent("amp.yaml").path, "--server", server.name, "--name", "fxhost-open",
                                "--no-connect", "--quiet", "--web", "0.0.0.0:0"], console: true)
        XCTAssertTrue(eventually(within: 60) { Self.webURL(open.stderr) != nil }, open.stderr)
        let printed = Self.webURL(open.stderr) ?? ""
        XCTAssertTrue(printed.contains("?token="), printed)
        let base = String(printed.prefix { $0 != "?" })
        let tokenClient = try Tools.run("python3", ["-c", Self.tokenClient, base, String(printed.split(separator: "=").last ?? "")])
        XCTAssertEqual(tokenClient.status, 0, tokenClient.stderr)
        XCTAssertEqual(Self.lines(tokenClient.stdout).map { $0["status"] as? Int ?? -1 }, [401, 401, 200, 200, 401, 101], tokenClient.stdout)
        open.type("quit")
        XCTAssertEqual(open.waitForExit(seconds: 60), 0, open.stderr)

        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.count, 2, "full level, then the set after the attacks: \(runs.map { ($0.value, $0.count) })")
        XCTAssertEqual(runs.last?.value ?? 0, 0.5 * 0.501187, accuracy: 1e-6)
    }

    /// Every command in its JSON form over `POST /api/v1/commands`: those the
    /// amp patch allows answered 200 with their events on the stream, in the
    /// order docs/control.md gives them; those it cannot do (a preset it does
    /// not have, learn without a MIDI input, a save over a file, a cancel with
    /// no bounce) 422 with a sentence, announced as `refused`; `quit` ends the run.
    func testEveryCommandsJSONFormIsAnsweredOverHTTP() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        defer { withExtendedLifetime(server) {} }
        let folder = try Tools.temporaryFolder(#function)
        try LiveRunTests.writeAmpPatch(folder, seconds: 8)
        let patch = folder.appendingPathComponent("amp.yaml").path
        try (String(contentsOfFile: patch, encoding: .utf8) + "\nscenes:\n  quiet: { amp: { gain: -20 } }\n")
            .write(toFile: patch, atomically: true, encoding: .utf8)
        // preset.save writes under $HOME/.lv2: the test's folder.
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet", "--web", "0"], console: true,
                              environment: ["HOME": folder.path])
        XCTAssertTrue(eventually(within: 60) { Self.webURL(run.stderr) != nil }, run.stderr)
        let requests: [(String, Int)] = [
            (#"{"v": 1, "cmd": "bypass", "node": "amp", "on": true}"#, 200),
            (#"{"v": 1, "cmd": "bypass", "node": "amp", "on": false}"#, 200),
            (#"{"v": 1, "cmd": "preset", "node": "amp", "name": "nope"}"#, 422),
            (#"{"v": 1, "cmd": "preset.save", "node": "amp", "name": "WebTest"}"#, 200),
            (#"{"v": 1, "cmd": "tap", "at": "amp", "file": "web.wav"}"#, 200),
            (#"{"v": 1, "cmd": "tap.pause", "at": "amp"}"#, 200),
            (#"{"v": 1, "cmd": "tap.resume", "at": "amp"}"#, 200),
            (#"{"v": 1, "cmd": "untap", "at": "amp"}"#, 200),
            (#"{"v": 1, "cmd": "connect", "from": "dc", "to": "main", "gainDB": -6}"#, 200),
            (#"{"v": 1, "cmd": "disconnect", "from": "dc", "to": "main"}"#, 200),
            (#"{"v": 1, "cmd": "scene", "name": "quiet"}"#, 200),
            (#"{"v": 1, "cmd": "learn", "node": "amp", "param": "gain"}"#, 422),
            (#"{"v": 1, "cmd": "unlearn", "node": "amp", "param": "gain"}"#, 422),
            (#"{"v": 1, "cmd": "map"}"#, 200),
            (#"{"v": 1, "cmd": "tempo", "bpm": 140}"#, 200),
            (#"{"v": 1, "cmd": "tempo.tap"}"#, 200),
            (#"{"v": 1, "cmd": "transport", "rolling": false}"#, 200),
            (#"{"v": 1, "cmd": "save", "file": "copy.yaml"}"#, 200),
            (#"{"v": 1, "cmd": "save", "file": "copy.yaml"}"#, 422),
            (#"{"v": 1, "cmd": "reload"}"#, 200),
            (#"{"v": 1, "cmd": "state", "node": "amp"}"#, 200),
            (#"{"v": 1, "cmd": "status"}"#, 200),
            (#"{"v": 1, "cmd": "bounce", "file": "bounce.wav", "to": 1}"#, 200),
        ]
        let body = try String(decoding: JSONSerialization.data(withJSONObject: requests.map(\.0)), as: UTF8.self)
        let client = try Tools.run("python3", ["-c", Self.commandsClient, Self.webURL(run.stderr) ?? "", body])
        XCTAssertEqual(client.status, 0, client.stderr)
        let answers = Self.lines(client.stdout)
        XCTAssertEqual(answers.count, requests.count + 3, client.stdout)
        guard answers.count == requests.count + 3 else { return }
        for (index, (request, status)) in requests.enumerated() {
            XCTAssertEqual(answers[index]["status"] as? Int, status, "\(request): \(answers[index])")
            let reply = Self.object(answers[index]["body"])
            XCTAssertEqual(reply["ok"] as? Bool, status == 200, request)
            if status == 422 { XCTAssertFalse((reply["error"] as? String ?? "").isEmpty, request) }
        }
        XCTAssertEqual((Self.object(answers[13]["body"])["scenes"] as? [String]), ["quiet"], "map")
        XCTAssertNotNil(Self.object(answers[20]["body"])["state"], "state")
        XCTAssertNotNil(Self.object(answers[21]["body"])["status"], "status")
        // Once the bounce has finished: nothing to cancel; then quit.
        XCTAssertEqual(answers[requests.count]["status"] as? Int, 422, "bounce.cancel with no bounce under way")
        XCTAssertEqual(answers[requests.count + 1]["status"] as? Int, 200)
        XCTAssertEqual(Self.object(answers[requests.count + 1]["body"])["quit"] as? Bool, true)
        let events = answers[requests.count + 2]["events"] as? [String] ?? []
        XCTAssertEqual(events.filter { $0 != "refused" },
                       ["hello", "bypass", "bypass", "preset.saved", "tap.started", "tap.paused", "tap.paused", "tap.resumed",
                        "tap.resumed", "tap.stopped", "tap.stopped", "connected", "disconnected", "scene", "parameter", "tempo",
                        "tempo.tap", "transport", "saved", "bounce.started", "bounce.finished"])
        XCTAssertEqual(events.filter { $0 == "refused" }.count, 4, "preset, learn, unlearn and the second save, each announced: \(events)")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: folder.appendingPathComponent("copy.yaml").path))
        XCTAssertEqual(try Audio.read(folder.appendingPathComponent("bounce.wav").path).channels[0].count, 48_000,
                       "a 1 s bounce")
        let saved = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(".lv2").path)
        XCTAssertEqual(saved.count, 1, "the preset's bundle: \(saved)")
    }

    /// Scale points of a port that is not an enumeration (fil4's high- and
    /// low-pass resonance) come as `points` beside its range, as lilv's own
    /// `lv2info` reads them from the plugin's TTL; an enumeration's (nodelay's
    /// `report_latency`) stay its `options` alone; a port without any has neither.
    func testScalePointsComeAsPointsAndAnEnumerationStaysItsOptions() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        defer { withExtendedLifetime(server) {} }
        let folder = try Tools.temporaryFolder(#function)
        try Audio.constant([0.5], frames: 48_000 * 4).write(folder.appendingPathComponent("dc.wav").path)
        let plugins = ["eq": "http://gareus.org/oss/lv2/fil4#mono", "nd": "http://gareus.org/oss/lv2/nodelay"]
        try """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          eq: { plugin: "\(plugins["eq"]!)" }
          nd: { plugin: \(plugins["nd"]!) }
          main: { output: 1 }
        chain: [dc, eq, nd, main]
        """.write(toFile: folder.appendingPathComponent("points.yaml").path, atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", folder.appendingPathComponent("points.yaml").path, "--server", server.name, "--quiet",
                               "--no-connect", "--web", "0"], console: true)
        XCTAssertTrue(eventually(within: 60) { Self.webURL(run.stderr) != nil }, run.stderr)
        let base = Self.webURL(run.stderr) ?? "http://127.0.0.1:1/"
        var checked = (points: 0, options: 0)
        for (node, uri) in plugins.sorted(by: { $0.key < $1.key }) {
            let reply = try Tools.run("python3", ["-c", "import sys, urllib.request; print(urllib.request.urlopen(sys.argv[1], timeout=30).read().decode())",
                                                  base + "api/v1/nodes/" + node])
            XCTAssertEqual(reply.status, 0, reply.stderr)
            let parameters = ((Self.object(reply.stdout)["nodes"] as? [[String: Any]])?.first?["parameters"] as? [[String: Any]]) ?? []
            XCTAssertFalse(parameters.isEmpty, reply.stdout)
            let ttl = try Self.scalePoints(uri)
            for parameter in parameters {
                let symbol = parameter["symbol"] as? String ?? "?"
                let read = { (key: String) in
                    (parameter[key] as? [[String: Any]])?.map { Self.Point(label: $0["label"] as? String ?? "?", value: $0["value"] as? Double ?? .nan) }
                }
                let port = try XCTUnwrap(ttl[symbol], "\(node) \(symbol) is a port of \(uri)")
                if port.enumeration {
                    XCTAssertEqual(read("options"), port.points, "\(node) \(symbol): an enumeration's options")
                    XCTAssertNil(parameter["points"], "\(node) \(symbol): an enumeration is a menu alone")
                    checked.options += 1
                } else if port.points.isEmpty {
                    XCTAssertNil(parameter["points"], "\(node) \(symbol)")
                    XCTAssertNil(parameter["options"], "\(node) \(symbol)")
                } else {
                    XCTAssertEqual(read("points"), port.points, "\(node) \(symbol): its scale points")
                    XCTAssertNil(parameter["options"], "\(node) \(symbol): not an enumeration")
                    checked.points += 1
                }
            }
        }
        XCTAssertEqual(checked.points, 2, "fil4's HPQ and LPQ")
        XCTAssertEqual(checked.options, 1, "nodelay's report_latency")
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
    }

    /// A port already in use stops the run before any sound, with one sentence.
    func testAPortInUseIsRefusedAtStart() throws {
        let (holder, port) = try XCTUnwrap(Tools.occupiedLoopbackPort(SOCK_STREAM))
        defer { close(holder) }
        let result = try Tools.run(Tools.fxhost, ["run", "--chain", "http://lv2plug.in/plugins/eg-amp", "--server", "no-such-server",
                                                  "--web", "\(port)"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains("--web: cannot listen on 127.0.0.1:\(port)"), result.stderr)
    }

    // MARK: Support

    struct Point: Equatable {
        var label: String
        var value: Double
    }

    /// Each input control port's scale points (by value) and whether it is an
    /// enumeration, as `lv2info` (lilv's own tool) prints the plugin's TTL:
    /// a port's block holds `Scale Points:` lines `VALUE = "LABEL"`, its
    /// `Symbol:` and its `Properties:`.
    static func scalePoints(_ uri: String) throws -> [String: (points: [Point], enumeration: Bool)] {
        let info = try Tools.run("lv2info", [uri])
        XCTAssertEqual(info.status, 0, info.stderr)
        var ports: [String: (points: [Point], enumeration: Bool)] = [:]
        for block in info.stdout.components(separatedBy: "\n\tPort ").dropFirst() {
            guard block.contains("#InputPort"), block.contains("#ControlPort") else { continue }
            let lines = block.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let symbol = lines.first(where: { $0.hasPrefix("Symbol:") })?.dropFirst("Symbol:".count)
                .trimmingCharacters(in: .whitespaces) else { continue }
            let points = lines.compactMap { line -> Point? in
                guard let equals = line.range(of: " = \""), line.hasSuffix("\""), let value = Double(line[..<equals.lowerBound]) else { return nil }
                return Point(label: String(line[equals.upperBound...].dropLast()), value: value)
            }
            ports[symbol] = (points.sorted { $0.value < $1.value }, block.contains("lv2core#enumeration"))
        }
        return ports
    }

    /// Status fields that move between two reads of a playing run: the run's
    /// time, load and timings, xruns, the peaks (each read resets them), the
    /// taps' and files' progress.
    static let timeVaryingStatusFields: Set<String> = [
        "seconds", "dspLoadPercent", "hostMicrosecondsPerCycle", "renderMicrosecondsPerCycle", "xruns",
        "outputs[].peakDecibels", "taps[].seconds", "taps[].droppedFrames",
        "files[].seconds", "files[].underrunFrames", "files[].finished",
    ]

    /// The same keys everywhere, and the same values but for `timeVaryingStatusFields`.
    static func assertSameStatus(web: String, console: String, file: StaticString = #filePath, line: UInt = #line) {
        let parse = { (text: String) in (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] }
        guard let web = parse(web), let console = parse(console) else {
            return XCTFail("two JSON objects: \(web) and \(console)", file: file, line: line)
        }
        compare(web, console, path: "", file: file, line: line)
    }

    private static func compare(_ web: Any, _ console: Any, path: String, file: StaticString, line: UInt) {
        switch (web, console) {
        case (let web as [String: Any], let console as [String: Any]):
            XCTAssertEqual(web.keys.sorted(), console.keys.sorted(), "keys of \(path.isEmpty ? "the status" : path)", file: file, line: line)
            for (key, value) in web {
                let inner = path.isEmpty ? key : path + "." + key
                guard let other = console[key], !timeVaryingStatusFields.contains(inner) else { continue }
                compare(value, other, path: inner, file: file, line: line)
            }
        case (let web as [Any], let console as [Any]):
            XCTAssertEqual(web.count, console.count, path, file: file, line: line)
            for (value, other) in zip(web, console) { compare(value, other, path: path + "[]", file: file, line: line) }
        default:
            XCTAssertEqual(web as? NSObject, console as? NSObject, path, file: file, line: line)
        }
    }

    /// The amp patch (a constant 0.5 through eg-amp, tapped) run with `--web 0` (a free port).
    static func startAmpRun(seconds: Int = 8, arguments: [String], testName: String = #function) throws
        -> (server: JackServerProcess, folder: URL, url: String, run: LiveRun) {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(testName)
        try LiveRunTests.writeAmpPatch(folder, seconds: seconds)
        let take = folder.appendingPathComponent("take.wav").path
        let run = try LiveRun(["run", folder.appendingPathComponent("amp.yaml").path, "--server", server.name,
                               "--quiet", "--web", "0"] + arguments, console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.7), run.stderr)
        XCTAssertTrue(eventually(within: 30) { webURL(run.stderr) != nil }, run.stderr)
        return (server, folder, webURL(run.stderr) ?? "http://127.0.0.1:1/", run)
    }

    /// The URL `web: URL` names on stderr.
    static func webURL(_ stderr: String) -> String? {
        stderr.split(separator: "\n").first { $0.hasPrefix("web: http://") }.map { String($0.dropFirst(5)) }
    }

    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    static func object(_ body: Any?) -> [String: Any] {
        guard let text = body as? String else { return [:] }
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any]) ?? [:]
    }

    /// Python: each request's status and body as a line of JSON; the
    /// events stream's parameter event and first meters after it.
    static let apiClient = """
        import json, sys, urllib.request, urllib.error, websocket
        base = sys.argv[1].rstrip('/')
        def request(method, path, body=None):
            data = body.encode() if isinstance(body, str) else body
            req = urllib.request.Request(base + path, data=data, method=method,
                                         headers={'Content-Type': 'application/json'} if data is not None else {})
            try:
                with urllib.request.urlopen(req, timeout=30) as reply:
                    return reply.status, reply.read().decode()
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode()
        def say(status, body):
            print(json.dumps({'status': status, 'body': body}), flush=True)
        ws = websocket.create_connection(base.replace('http://', 'ws://') + '/api/v1/events', timeout=30)
        assert json.loads(ws.recv())['event'] == 'hello'
        say(*request('GET', '/api/v1/status'))
        say(*request('GET', '/api/v1/nodes/amp'))
        say(*request('GET', '/api/v1/nodes/nope'))
        say(*request('POST', '/api/v1/commands', json.dumps({'v': 1, 'cmd': 'set', 'node': 'amp', 'param': 'gain', 'value': -6})))
        say(*request('POST', '/api/v1/commands', json.dumps({'v': 1, 'line': 'set amp gian 3'})))
        say(*request('POST', '/api/v1/commands', '{"v": 1, "cmd": '))
        say(*request('POST', '/api/v1/commands', json.dumps({'v': 1, 'cmd': 'sett'})))
        while True:
            event = json.loads(ws.recv())
            if event['event'] == 'parameter':
                print(json.dumps(event), flush=True)
                break
        # Meters asked for after the set, once the stream has seen it: the first full period after is at the new gain.
        ws.send(json.dumps({'meters': 20}))
        seen = 0
        while True:
            event = json.loads(ws.recv())
            if event['event'] == 'meters':
                seen += 1
                if seen == 3:
                    print(json.dumps(event), flush=True)
                    break
        say(*request('POST', '/api/v1/commands', json.dumps({'v': 1, 'line': 'set amp gain -12'})))
        say(*request('GET', '/api/v1/status'))
        say(*request('GET', '/api/v1/files'))
        ws.close()
        """

    /// Python: posts each command of the JSON list given, then, once the events
    /// stream has seen the bounce finish, `bounce.cancel` and `quit`; prints
    /// each answer, then the events' names.
    static let commandsClient = """
        import json, sys, urllib.request, urllib.error, websocket
        base, bodies = sys.argv[1].rstrip('/'), json.loads(sys.argv[2])
        ws = websocket.create_connection(base.replace('http://', 'ws://') + '/api/v1/events', timeout=30)
        events = [json.loads(ws.recv())['event']]
        def post(body):
            req = urllib.request.Request(base + '/api/v1/commands', data=body.encode(), method='POST')
            try:
                with urllib.request.urlopen(req, timeout=30) as reply:
                    status, text = reply.status, reply.read().decode()
            except urllib.error.HTTPError as error:
                status, text = error.code, error.read().decode()
            print(json.dumps({'status': status, 'body': text}), flush=True)
        for body in bodies:
            post(body)
        while events[-1] != 'bounce.finished':
            events.append(json.loads(ws.recv())['event'])
        post(json.dumps({'v': 1, 'cmd': 'bounce.cancel'}))
        post(json.dumps({'v': 1, 'cmd': 'quit'}))
        print(json.dumps({'events': events}), flush=True)
        """

    /// Python: hostile requests, then a set that must still work.
    static let hostileClient = """
        import json, socket, sys, os, http.client, urllib.parse
        base = urllib.parse.urlparse(sys.argv[1])
        def request(method, path, body=None, headers={}):
            connection = http.client.HTTPConnection(base.hostname, base.port, timeout=30)
            connection.request(method, path, body=body, headers=headers)
            reply = connection.getresponse()
            result = (reply.status, reply.read().decode())
            connection.close()
            return result
        def say(status, body, **more):
            print(json.dumps(dict({'status': status, 'body': body}, **more)), flush=True)
        set6 = json.dumps({'v': 1, 'cmd': 'set', 'node': 'amp', 'param': 'gain', 'value': -6})
        # A page on another site posting to the loopback server.
        say(*request('POST', '/api/v1/commands', set6, {'Origin': 'http://evil.example', 'Content-Type': 'text/plain'}))
        say(*request('GET', '/api/v1/status', None, {'Origin': 'null'}))
        # DNS rebinding: the attacker's name in Host.
        say(*request('GET', '/api/v1/status', None, {'Host': 'evil.example:%d' % base.port}))
        # A WebSocket opened by a page of another site.
        import websocket
        try:
            websocket.create_connection('ws://%s:%d/api/v1/events' % (base.hostname, base.port), origin='http://evil.example', timeout=30)
            say(101, 'opened')
        except websocket.WebSocketBadStatusException as error:
            say(error.status_code, (error.resp_body or b'').decode())
        # A body over the limit.
        say(*request('POST', '/api/v1/commands', '{"v": 1, "line": "' + 'x' * 100000 + '"}'))
        # Random bytes after a WebSocket handshake.
        s = socket.create_connection((base.hostname, base.port), timeout=30)
        s.sendall(('GET /api/v1/events HTTP/1.1\\r\\nHost: 127.0.0.1:%d\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n'
                   'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n' % base.port).encode())
        handshake = s.recv(4096)
        assert handshake.startswith(b'HTTP/1.1 101'), handshake
        # A close frame split in fragments (FIN clear on a control frame: no peer may send it), then random bytes.
        s.sendall(b'\\x08\\x80' + os.urandom(4094))
        closed = False
        try:
            while True:
                chunk = s.recv(4096)
                if not chunk:
                    closed = True
                    break
        except (ConnectionResetError, socket.timeout) as error:
            closed = not isinstance(error, socket.timeout)
        say(0, '', closed=closed)
        events = 'ws://%s:%d/api/v1/events' % (base.hostname, base.port)
        # A single text frame over the 64 KiB a message may have: the connection is closed.
        ws = websocket.create_connection(events, timeout=30)
        assert json.loads(ws.recv())['event'] == 'hello'
        closed = False
        try:
            ws.send('x' * (64 * 1024 + 1))
            while not closed:
                opcode, _ = ws.recv_data(control_frame=True)
                closed = opcode == websocket.ABNF.OPCODE_CLOSE
        except (websocket.WebSocketConnectionClosedException, ConnectionError):
            closed = True
        say(0, '', closed=closed)
        # A text message the stream does not take: an error event, and the stream stays open.
        ws = websocket.create_connection(events, timeout=30)
        assert json.loads(ws.recv())['event'] == 'hello'
        ws.send(json.dumps({'meters': 'fast'}))
        say(0, ws.recv())
        ws.close()
        # A tap outside the patch's folder.
        say(*request('POST', '/api/v1/commands', json.dumps({'v': 1, 'cmd': 'tap', 'at': 'amp', 'file': '../escape.wav'})))
        # And the run goes on.
        say(*request('POST', '/api/v1/commands', set6))
        # The status once it counts as many refusals as the test expects (or after 30 s).
        import time
        deadline = time.monotonic() + 30
        while True:
            status, body = request('GET', '/api/v1/status')
            if json.loads(body).get('webRefused', 0) >= int(sys.argv[2]) or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        say(status, body)
        """

    /// Python: without the token, with a wrong one, as ?token= and as a header; the events WebSocket without it and with it.
    static let tokenClient = """
        import json, sys, urllib.request, urllib.error
        base, token = sys.argv[1].rstrip('/'), sys.argv[2]
        def get(path, headers={}):
            try:
                with urllib.request.urlopen(urllib.request.Request(base + path, headers=headers), timeout=30) as reply:
                    return reply.status
            except urllib.error.HTTPError as error:
                return error.code
        import websocket
        def events(query):
            try:
                websocket.create_connection(base.replace('http:', 'ws:') + '/api/v1/events' + query, timeout=30).close()
                return 101
            except websocket.WebSocketBadStatusException as error:
                return error.status_code
        for status in [get('/api/v1/status'), get('/api/v1/status?token=wrong' + token[5:]),
                       get('/api/v1/status?token=' + token), get('/api/v1/status', {'X-Fxhost-Token': token}),
                       events(''), events('?token=' + token)]:
            print(json.dumps({'status': status}), flush=True)
        """
}
