import Foundation
import XCTest

/// A tap whose file cannot grow (a full disk; here a file size limit, which
/// any process may set on itself: `prlimit --fsize`, writes then fail with
/// EFBIG) while `fxhost run` plays. The failure must be news at once and
/// cost nothing else: announced on the console and to OSC subscribers,
/// `failed` in the status, the file closed and readable up to its last
/// whole frame, the other tap and the sound going on, and `run` ending with
/// exit 0 and a summary naming the failed tap. Offline, `render` stops
/// with a sentence and exit 1.
///
/// The source is a counter (frame k holds (k + 1) / 2^21, exact in float
/// and in 24 bits), so every frame of a take names the frame it was played
/// as. `full.wav` (32-bit float, 192 kB a second) reaches the limit after
/// about 5 s; `whole.flac` (FLAC compresses a ramp to almost nothing) never does.
final class TapWriteFailureRunTests: XCTestCase {
    private static let scale = LiveTapPauseRunTests.scale
    /// Not a whole number of frames past the header: the write that meets
    /// the limit stops inside a frame.
    private static let sizeLimit = 1_000_003

    func testAFullTapIsAnnouncedAndTheRestPlaysOn() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try LiveTapPauseRunTests.writeCounterPatch(in: folder, seconds: 30, sourceTap: "full.wav", trimTap: "whole.flac")
        let full = path("full.wav"), whole = path("whole.flac")

        // An OSC subscriber no one here wrote (python-osc), subscribed as
        // soon as fxhost listens: it prints the failure's message and ends.
        let port = try OSCRunTests.freeUDPPort()
        let subscriber = try Self.startSubscriber(port: port)
        defer { if subscriber.process.isRunning { subscriber.process.terminate() } }
        let run = try LiveRun(["run", path("patch.yaml"), "--server", server.name, "--json", "--osc", "\(port)"],
                              console: true, launcher: ["/usr/bin/prlimit", "--fsize=\(Self.sizeLimit)", "--"])

        // The console: a line on stderr naming the tap, its file and why.
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("fxhost: error: tap src → \(full): file too large") },
                      "stdout: \(run.stdout)\nstderr: \(run.stderr)")
        // OSC: every subscriber hears it.
        XCTAssertTrue(eventually(within: 60) { !subscriber.process.isRunning }, subscriber.output())
        let heard = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(subscriber.output().utf8)) as? [Any],
                                  subscriber.output())
        XCTAssertEqual(heard.count, 5, "\(heard)")
        XCTAssertEqual(heard.first as? String, "/fxhost/tap/failed")
        XCTAssertEqual(heard.dropFirst().first as? String, "src")
        XCTAssertEqual(heard.dropFirst(2).first as? String, full)
        XCTAssertEqual(heard.last as? String, "file too large")

        // The status, as text and as JSON, while the run goes on.
        run.type("status")
        XCTAssertTrue(eventually(within: 60) {
            run.stdout.range(of: #"tap src \d+:\d\d\.\d failed: file too large"#, options: .regularExpression) != nil
        }, run.stdout)
        let failedFrames = try XCTUnwrap(Self.frames(ofTap: full, in: try XCTUnwrap(Self.latestStatus(of: run))))
        // The other tap records on, a second past the failure and more.
        XCTAssertTrue(eventually(within: 60) {
            guard let status = Self.latestStatus(of: run), let frames = Self.frames(ofTap: whole, in: status) else { return false }
            return frames >= failedFrames + 48_000
        }, run.stdout)
        let during = try XCTUnwrap(Self.latestStatus(of: run))
        XCTAssertEqual(Self.tap(full, in: during)?["state"] as? String, "failed")
        XCTAssertEqual(Self.tap(full, in: during)?["error"] as? String, "file too large")
        XCTAssertEqual(Self.tap(full, in: during)?["recording"] as? Bool, false, "its file is closed")
        XCTAssertEqual(Self.tap(whole, in: during)?["state"] as? String, "recording")
        XCTAssertNil(Self.tap(whole, in: during)?["error"])

        // A failed tap cannot be paused; it can be untapped, and stays failed.
        run.type("tap pause src")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("the tap on `src` failed") }, run.stderr)
        run.type("untap src")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("tap src → \(full): ") }, run.stdout)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        // The summary names the failed tap: file, time kept, reason.
        XCTAssertNotNil(run.stderr.range(of: "  tap src → \(full): " + #"\d+:\d\d\.\d kept, then failed: file too large"#,
                                         options: .regularExpression), run.stderr)
        XCTAssertNotNil(run.stderr.range(of: "  tap trim → \(whole): " + #"\d+:\d\d\.\d\n"#, options: .regularExpression),
                        run.stderr)
        // The closing status (run --json) says the same.
        let closing = try XCTUnwrap(Self.statusDocuments(in: run.stdout).last)
        XCTAssertEqual(Self.tap(full, in: closing)?["state"] as? String, "failed")
        XCTAssertEqual(Self.tap(full, in: closing)?["error"] as? String, "file too large")
        XCTAssertEqual(Self.tap(full, in: closing)?["droppedFrames"] as? Int, 0,
                       "what a failed file could not take is not counted as dropped")
        XCTAssertEqual(Self.tap(whole, in: closing)?["state"] as? String, "finished")
        XCTAssertEqual(run.stderr.components(separatedBy: "fxhost: error: tap src").count, 2, "announced once: \(run.stderr)")

        // The failed take: as large as the limit lets it be, cut back to its
        // last whole frame, a WAV file whose data chunk ends the file, read by
        // sox as by fxhost, holding the counter from its first frame unbroken.
        let bytes = try Data(contentsOf: URL(fileURLWithPath: full))
        let data = try XCTUnwrap(Self.dataChunk(of: bytes), "full.wav has a data chunk")
        XCTAssertLessThanOrEqual(bytes.count, Self.sizeLimit)
        XCTAssertLessThan(Self.sizeLimit - bytes.count, 4, "the take keeps every whole frame the limit had room for")
        XCTAssertEqual(data.start + data.size, bytes.count, "the file ends with the last whole frame")
        XCTAssertEqual(data.size % 4, 0)
        let kept = data.size / 4
        XCTAssertEqual(kept, failedFrames, "the status gave the frames kept")
        XCTAssertEqual(heard.dropFirst(3).first as? Double ?? -1, Double(kept) / 48_000, accuracy: 0.5 / 48_000,
                       "the announcement gave the time kept")
        let soxi = try Tools.run("soxi", ["-s", full])
        XCTAssertEqual(soxi.status, 0, soxi.stderr)
        XCTAssertEqual(Int(soxi.stdout.trimmingCharacters(in: .whitespacesAndNewlines)), kept)
        let take = try Audio.read(full).channels[0]
        XCTAssertEqual(take.count, kept)
        XCTAssertEqual(LiveTapPauseRunTests.runs(of: take), [1...kept], "the counter, unbroken, from the first frame")

        // The other take: whole, from the first frame to the quit.
        let rest = try Audio.read(whole).channels[0]
        let runs = LiveTapPauseRunTests.runs(of: rest)
        XCTAssertEqual(runs.count, 1, "\(runs)")
        XCTAssertEqual(runs.first?.lowerBound, 1)
        XCTAssertGreaterThanOrEqual(rest.count, kept + 48_000, "it recorded on after the other tap failed")
    }

    /// Offline, a tap that cannot be written ends the render with one
    /// sentence naming the file and why, exit 1, and no file left behind.
    func testARenderWhoseTapCannotBeWrittenStopsWithASentence() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio(channels: [(0..<48_000 * 10).map { Float($0 + 1) / Self.scale }]).write(path("counter.wav"))
        try """
        fxhost: 1
        nodes:
          src: { file: counter.wav }
        taps:
          - { at: src, file: take.wav }
        """.write(toFile: path("taponly.yaml"), atomically: true, encoding: .utf8)
        let result = try Tools.run("/usr/bin/prlimit", ["--fsize=\(Self.sizeLimit)", "--", Tools.fxhost, "render",
                                                        path("taponly.yaml"), "--tail", "0", "--quiet"])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertEqual(result.stderr, "fxhost: error: writing audio file `\(path("take.wav"))` failed: file too large.\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted(),
                       ["counter.wav", "taponly.yaml"])
    }

    // MARK: Helpers

    /// python-osc on a plain UDP socket: subscribes (with meters, so it
    /// knows when fxhost listens) until something comes back, renews every
    /// 10 s, and prints the first `/fxhost/tap/failed` as a JSON array.
    private static func startSubscriber(port: UInt16) throws -> (process: Process, output: () -> String) {
        let script = """
            import json, socket, sys, time
            from pythonosc.osc_message import OscMessage
            from pythonosc.osc_message_builder import OscMessageBuilder
            fxhost = ("127.0.0.1", int(sys.argv[1]))
            sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            sock.bind(("127.0.0.1", 0))
            sock.settimeout(0.2)
            builder = OscMessageBuilder(address="/fxhost/subscribe")
            builder.add_arg(5.0)
            subscribe = builder.build().dgram
            deadline = time.time() + 120
            renew = 0
            heard = False
            while time.time() < deadline:
                if not heard or time.time() >= renew:
                    sock.sendto(subscribe, fxhost)
                    renew = time.time() + 10
                try:
                    message = OscMessage(sock.recvfrom(65536)[0])
                except (socket.timeout, ConnectionRefusedError):
                    continue
                heard = True
                if message.address == "/fxhost/tap/failed":
                    print(json.dumps([message.address] + list(message.params)), flush=True)
                    sys.exit(0)
            sys.exit("no /fxhost/tap/failed within 120 s")
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, "\(port)"]
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("fxhost-osc-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: output)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, { (try? String(contentsOf: output, encoding: .utf8)) ?? "" })
    }

    /// Asks for `status --json` and returns the answer, once it is printed.
    private static func latestStatus(of run: LiveRun) -> [String: Any]? {
        let before = statusDocuments(in: run.stdout).count
        run.type("status --json")
        guard eventually(within: 60, { statusDocuments(in: run.stdout).count > before }) else { return nil }
        return statusDocuments(in: run.stdout).last
    }

    /// The pretty-printed JSON objects on stdout (a line "{" to a line "}").
    private static func statusDocuments(in output: String) -> [[String: Any]] {
        LiveRun.prettyJSONDocuments(in: output).compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private static func tap(_ file: String, in status: [String: Any]) -> [String: Any]? {
        (status["taps"] as? [[String: Any]])?.first { $0["file"] as? String == file }
    }

    /// A tap's time in the status, in frames at 48 kHz.
    private static func frames(ofTap file: String, in status: [String: Any]) -> Int? {
        (tap(file, in: status)?["seconds"] as? Double).map { Int(($0 * 48_000).rounded()) }
    }

    /// Where a RIFF/WAVE file's `data` chunk starts and its declared size,
    /// walking the chunks from the header.
    private static func dataChunk(of bytes: Data) -> (start: Int, size: Int)? {
        let bytes = [UInt8](bytes)
        guard bytes.count >= 12, bytes[0..<4] == [0x52, 0x49, 0x46, 0x46], bytes[8..<12] == [0x57, 0x41, 0x56, 0x45] else {
            return nil
        }
        var offset = 12
        while offset + 8 <= bytes.count {
            let size = (0..<4).reduce(0) { $0 | Int(bytes[offset + 4 + $1]) << (8 * $1) }
            if bytes[offset..<offset + 4] == [0x64, 0x61, 0x74, 0x61] { return (offset + 8, size) }
            offset += 8 + size + size % 2
        }
        return nil
    }
}
