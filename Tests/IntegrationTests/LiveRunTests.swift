import Foundation
import HostCore
import JackIO
import XCTest

/// `fxhost run` as users run it: the built binary on a private dummy JACK
/// server this test starts, controlled through stdin and signals, judged by
/// what its taps hold.
final class LiveRunTests: XCTestCase {
    /// The live tap of a file-driven patch holds the same samples as the
    /// offline render of that patch, once aligned: the offset is found by an
    /// exact match of the render's opening samples.
    func testALiveRunTapsTheSameSamplesAsTheOfflineRender() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 128)
        let patch = try Self.writeDrivePatch(Tools.temporaryFolder())
        try LiveTapAlignment.assertLiveRunMatchesRender(patch: patch, node: "main", server: .jack(server))
    }

    /// `set amp gain -6` on eg-amp halves the level (-6 dB = ×0.501), and
    /// `bypass amp on` brings it back, measured on a tap of the amp.
    func testConsoleCommandsChangeWhatIsHeard() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        try Self.assertConsoleCommandsChangeWhatIsHeard(on: .jack(server), in: Tools.temporaryFolder())
    }

    /// What `testConsoleCommandsChangeWhatIsHeard` checks, on `server`.
    static func assertConsoleCommandsChangeWhatIsHeard(on server: LiveServer, in folder: URL,
                                                       file: StaticString = #filePath, line: UInt = #line) throws {
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try writeAmpPatch(folder, seconds: 8)
        let run = try LiveRun(["run", path("amp.yaml"), "--quiet"], on: server, console: true)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.7), file: file, line: line)
        run.type("set amp gian 3")
        run.type("set amp gain -6")
        XCTAssertTrue(run.waitForRuns(path("take.wav"), count: 2, lastAtLeast: 33_600), file: file, line: line)
        run.type("bypass amp on")
        XCTAssertTrue(run.waitForRuns(path("take.wav"), count: 3, lastAtLeast: 33_600), file: file, line: line)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr, file: file, line: line)
        XCTAssertTrue(run.stdout.contains("amp:gain = -6.0"), run.stdout, file: file, line: line)
        XCTAssertTrue(run.stderr.contains("has no parameter `gian` (did you mean `gain`?)"), run.stderr, file: file, line: line)

        let take = try Audio.read(path("take.wav")).channels[0]
        let halved = 0.5 * Float(pow(10, -6.0 / 20))
        let runs = Self.runs(of: take)
        XCTAssertEqual(runs.count, 3, "full level, -6 dB, bypassed: \(runs.map { ($0.value, $0.count) })",
                       file: file, line: line)
        guard runs.count == 3 else { return }
        XCTAssertEqual(runs[0].value, 0.5, file: file, line: line)
        XCTAssertEqual(runs[1].value, halved, accuracy: 1e-6, file: file, line: line)
        XCTAssertEqual(runs[2].value, 0.5, file: file, line: line)
        for stretch in runs { XCTAssertGreaterThan(stretch.count, 24_000, file: file, line: line) }
    }

    /// A tap on a node's channel is untapped by the same name (and only it),
    /// and a gain can be written as two words ("-6 dB").
    func testTapUntapByPortAndAGainInTwoWords() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeAmpPatch(folder, seconds: 8)
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--quiet"], console: true)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.5))
        run.type("tap main \(path("whole.wav"))")
        run.type("tap main:1 \(path("mix.wav"))")
        XCTAssertTrue(run.waitForTap(path("mix.wav"), seconds: 0.5))
        run.type("connect dc main -6 dB")
        XCTAssertTrue(run.waitForRuns(path("mix.wav"), count: 2, lastAtLeast: 24_000))
        run.type("untap main:1")
        // The untapped file stops growing; the other goes on.
        XCTAssertTrue(eventually(within: 60) {
            LiveRun.frames(path("whole.wav")) > LiveRun.frames(path("mix.wav")) + 14_400
        })
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertFalse(run.stderr.contains("error"), run.stderr)

        let mix = try Audio.read(path("mix.wav")), whole = try Audio.read(path("whole.wav"))
        XCTAssertGreaterThan(whole.frames, mix.frames + 9_600, "untap main:1 left the tap on the whole node recording")
        let runs = Self.runs(of: mix.channels[0])
        XCTAssertEqual(runs.count, 2, "the amp alone, then the amp plus dc at -6 dB: \(runs.map { ($0.value, $0.count) })")
        guard runs.count == 2 else { return }
        XCTAssertEqual(runs[0].value, 0.5)
        XCTAssertEqual(runs[1].value, 0.5 + 0.5 * Float(pow(10, -6.0 / 20)), accuracy: 1e-6)
    }

    /// No take is overwritten by `fxhost run`: the patch's tap whose file
    /// exists records to `take-2.wav`, and `untap` then `tap` of the same
    /// file on the console to `take-3.wav`; the echo and the summary name
    /// them, and the earlier file keeps its bytes.
    func testARunNeverOverwritesAnEarlierTake() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeAmpPatch(folder, seconds: 8)
        let earlier = Data("an earlier take, 1:39 of it".utf8)
        try earlier.write(to: URL(fileURLWithPath: path("take.wav")))
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name], console: true)
        XCTAssertTrue(run.waitForTap(path("take-2.wav"), seconds: 0.3), run.stderr)
        run.type("untap amp")
        run.type("tap amp \(path("take.wav"))")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("tap amp → \(path("take-3.wav")): recording") },
                      run.stdout + run.stderr)
        XCTAssertTrue(run.waitForTap(path("take-3.wav"), seconds: 0.3), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: path("take.wav"))), earlier, "the earlier take is as it was")
        XCTAssertGreaterThan(try Audio.read(path("take-2.wav")).frames, 0)
    }

    /// `preset amp Quiet` applies a preset whose only value is gain -6 dB
    /// (from a bundle this test writes) while the amp plays.
    func testAPresetFromTheConsoleChangesWhatIsHeard() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeAmpPatch(folder, seconds: 8)
        let bundle = folder.appendingPathComponent("lv2/quiet-amp.lv2")
        try FileManager.default.createDirectory(at: bundle, withIntermediateDirectories: true)
        let preset = """
            @prefix lv2: <http://lv2plug.in/ns/lv2core#> .
            @prefix pset: <http://lv2plug.in/ns/ext/presets#> .
            @prefix rdfs: <http://www.w3.org/2000/01/rdf-schema#> .
            <urn:fxhost:test:quiet-amp> a pset:Preset ;
                lv2:appliesTo <http://lv2plug.in/plugins/eg-amp> ;
                rdfs:label "Quiet" ;
                lv2:port [ lv2:symbol "gain" ; pset:value -6.0 ] .
            """
        try preset.write(to: bundle.appendingPathComponent("manifest.ttl"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--quiet"], console: true,
                              environment: ["LV2_PATH": folder.appendingPathComponent("lv2").path + ":/usr/lib/lv2"])
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.7))
        run.type("preset amp Loud")
        run.type("preset amp quiet")
        XCTAssertTrue(run.waitForRuns(path("take.wav"), count: 2, lastAtLeast: 33_600))
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("has no preset \"Loud\"; its presets are: \"Quiet\""), run.stderr)

        let runs = Self.runs(of: try Audio.read(path("take.wav")).channels[0])
        XCTAssertEqual(runs.count, 2, "full level, then -6 dB: \(runs.map { ($0.value, $0.count) })")
        guard runs.count == 2 else { return }
        XCTAssertEqual(runs[0].value, 0.5)
        XCTAssertEqual(runs[1].value, 0.5 * Float(pow(10, -6.0 / 20)), accuracy: 1e-6)
        XCTAssertGreaterThan(runs[1].count, 24_000)
    }

    /// SIGKILL while recording: the WAV and the FLAC both open and hold
    /// everything they held before the kill (seconds of it), and no more
    /// than was played.
    func testSIGKILLDuringATapLeavesReadableFiles() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeAmpPatch(folder, seconds: 10)
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--quiet",
                               "--tap", "main=\(path("take.flac"))"])
        // The files exist from just before the client starts: at most this much audio can be in them.
        XCTAssertTrue(eventually(within: 60) { FileManager.default.fileExists(atPath: path("take.flac")) })
        let created = Date()
        // Seconds of audio on disk in both files while running, waited for, not slept for.
        var held: [String: Int] = [:]
        XCTAssertTrue(eventually(within: 60) {
            for file in ["take.wav", "take.flac"] { held[file] = (try? Audio.read(path(file)).frames) ?? 0 }
            return held["take.wav"]! >= 3 * 48_000 && held["take.flac"]! >= 2 * 48_000
        }, "\(held)")
        // The engine plays in a child process: killing the supervisor takes it along, killed too.
        let engines = run.children
        XCTAssertEqual(engines.count, 1, "one engine process")
        run.kill(SIGKILL)
        let played = Date().timeIntervalSince(created)
        XCTAssertEqual(run.waitForExit(seconds: 60), SIGKILL)
        XCTAssertTrue(eventually(within: 30) { engines.allSatisfy { Glibc.kill($0, 0) != 0 } }, "the engine ended with it")
        for file in ["take.wav", "take.flac"] {
            let take = try Audio.read(path(file))
            XCTAssertGreaterThanOrEqual(take.frames, held[file]!, "\(file) lost what it held before the kill")
            XCTAssertLessThanOrEqual(Double(take.frames) / 48_000, played + 0.1, file)
            XCTAssertTrue(take.channels[0].allSatisfy { $0 == 0.5 }, "\(file) holds what was played")
        }
    }

    /// The server goes away: fxhost finalises its taps, says so in one
    /// sentence and exits non-zero.
    func testAServerShutdownEndsTheRunWithAnErrorAndReadableTaps() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeAmpPatch(folder, seconds: 10)
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--quiet"])
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 1))
        server.stop()
        let status = run.waitForExit(seconds: 60)
        XCTAssertNotEqual(status, 0)
        XCTAssertNotNil(status, "fxhost did not end after the server died")
        XCTAssertTrue(run.stderr.contains("fxhost: error: the JACK server shut down"), run.stderr)
        let take = try Audio.read(path("take.wav"))
        XCTAssertGreaterThanOrEqual(take.frames, 48_000)
        XCTAssertTrue(take.channels[0].allSatisfy { $0 == 0.5 })
    }

    /// With --reconnect the run outlives its server: it waits, joins the
    /// server when it is back under the same name, and the same tap goes on.
    func testWithReconnectTheRunResumesWhenTheServerReturns() throws {
        var server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let name = server.name
        defer { server.stop() }
        try Self.assertARunResumesWhenTheServerReturns(
            on: .jack(server), in: Tools.temporaryFolder(), stopServer: { server.stop() },
            startServer: { server = try JackServerProcess(name: name, sampleRate: 48_000, bufferFrames: 256) })
    }

    /// What `testWithReconnectTheRunResumesWhenTheServerReturns` checks:
    /// `fxhost run --reconnect` on `server`, which `stopServer` takes away
    /// and `startServer` brings back.
    static func assertARunResumesWhenTheServerReturns(on server: LiveServer, in folder: URL,
                                                      stopServer: () -> Void, startServer: () throws -> Void,
                                                      file: StaticString = #filePath, line: UInt = #line) throws {
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try writeAmpPatch(folder, seconds: 10)
        let run = try LiveRun(["run", path("amp.yaml"), "--reconnect", "--json"], on: server)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.5), file: file, line: line)
        stopServer()
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("waiting for it to return") }, run.stderr,
                      file: file, line: line)
        let before = try Audio.read(path("take.wav")).frames
        try startServer()
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("reconnected to the JACK server") }, run.stderr,
                      file: file, line: line)
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: Double(before) / 48_000 + 0.5), file: file, line: line)
        run.kill(SIGINT)
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr, file: file, line: line)
        let take = try Audio.read(path("take.wav"))
        XCTAssertGreaterThan(take.frames, before + 24_000, file: file, line: line)
        XCTAssertTrue(take.channels[0].allSatisfy { $0 == 0.5 }, "the file resumes where it was, at the same level",
                      file: file, line: line)
        let status = try JSONDecoder().decode(LiveStatus.self, from: Data(run.stdout.utf8))
        XCTAssertEqual(status.seconds, Double(take.frames) / 48_000, accuracy: 0.05,
                       "the time played counts both servers' cycles", file: file, line: line)
    }

    /// Waiting for a server that never returns still ends at --duration,
    /// with the tap finalised.
    func testDurationEndsARunWaitingForItsServer() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeAmpPatch(folder, seconds: 10)
        let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--reconnect", "--duration", "30s"])
        XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.5))
        server.stop()
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("waiting for it to return") }, run.stderr)
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertGreaterThan(try Audio.read(path("take.wav")).frames, 24_000)
    }

    func testSIGINTSIGTERMAndSIGHUPFinaliseEveryTapAndExitZero() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Self.writeAmpPatch(folder, seconds: 10)
        for signal in [SIGINT, SIGTERM, SIGHUP] {
            try? FileManager.default.removeItem(atPath: path("take.wav"))
            let run = try LiveRun(["run", path("amp.yaml"), "--server", server.name, "--json"])
            XCTAssertTrue(run.waitForTap(path("take.wav"), seconds: 0.5))
            run.kill(signal)
            XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
            let status = try JSONDecoder().decode(LiveStatus.self, from: Data(run.stdout.utf8))
            let take = try Audio.read(path("take.wav"))
            XCTAssertEqual(status.taps.map(\.recording), [false])
            XCTAssertEqual(Double(take.frames) / 48_000, status.taps[0].seconds, "the file holds every frame the tap took")
            XCTAssertEqual(status.taps[0].droppedFrames, 0)
            XCTAssertTrue(run.stderr.contains("tap amp → "), run.stderr)
        }
    }

    func testWithoutAServerItSaysSoInOneSentence() throws {
        let folder = try Tools.temporaryFolder()
        try Self.writeAmpPatch(folder, seconds: 1)
        let missing = JackServerProcess.uniqueName(prefix: "fxhost-absent")
        let result = try Tools.run(Tools.fxhost, ["run", folder.appendingPathComponent("amp.yaml").path,
                                                  "--server", missing])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.stderr.contains(
            "fxhost: error: no JACK server named `\(missing)` is running (fxhost never starts one by itself)\n"),
            result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("take.wav").path))
    }

    // MARK: Helpers

    /// Noise (1 s, from 100 ms in) through mda Overdrive to a stereo output,
    /// for `LiveTapAlignment`; returns the patch's path.
    static func writeDrivePatch(_ folder: URL) throws -> String {
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 48_000, amplitude: 0.4, seed: 11).write(path("noise.wav"))
        try """
        fxhost: 1
        nodes:
          src: { file: noise.wav, start: 100ms }
          drive: { plugin: http://drobilla.net/plugins/mda/Overdrive, params: { drive: 0.7, muffle: 0.3 } }
          main: { output: 2 }
        chain: [src, drive, main]
        """.write(toFile: path("patch.yaml"), atomically: true, encoding: .utf8)
        return path("patch.yaml")
    }

    /// A constant 0.5 through eg-amp (0 dB) to a mono output, the amp tapped to take.wav.
    static func writeAmpPatch(_ folder: URL, seconds: Int) throws {
        try Audio.constant([0.5], frames: 48_000 * seconds).write(folder.appendingPathComponent("dc.wav").path)
        try """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
          main: { output: 1 }
        chain: [dc, amp, main]
        taps:
          - { at: amp, file: take.wav }
        """.write(toFile: folder.appendingPathComponent("amp.yaml").path, atomically: true, encoding: .utf8)
    }

    /// Runs of equal consecutive values.
    static func runs(of samples: [Float]) -> [(value: Float, count: Int)] {
        var result: [(value: Float, count: Int)] = []
        for sample in samples {
            if let last = result.last, last.value == sample {
                result[result.count - 1].count += 1
            } else {
                result.append((sample, 1))
            }
        }
        return result
    }
}

/// fxhost running in the background: stdin a pipe (the console), stdout and
/// stderr files, killed at the end of the test if still running. On a
/// PipeWire server it runs under `pw-jack`, which execs it (the process is
/// fxhost's all the same), in the server's environment.
final class LiveRun {
    private let process = Process()
    private let input = Pipe()
    private let outputFile: URL
    private let errorFile: URL

    /// `launcher`: a program (and its arguments) that runs fxhost, such as
    /// `prlimit --fsize=N --`; fxhost's path and `arguments` follow it.
    init(_ arguments: [String], console: Bool = false, environment: [String: String] = [:],
         on pipeWire: PipeWireServer? = nil, launcher: [String] = []) throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("fxhost-live-\(UUID().uuidString)")
        outputFile = base.appendingPathExtension("out")
        errorFile = base.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        let command = launcher + (pipeWire?.jackCommand(Tools.fxhost, arguments) ?? [Tools.fxhost] + arguments)
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = Tools.childEnvironment(environment, base: pipeWire?.environment ?? ProcessInfo.processInfo.environment)
        process.standardInput = console ? input : FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(at: outputFile)
        try? FileManager.default.removeItem(at: errorFile)
    }

    var stdout: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    /// The pretty-printed JSON documents in `output` (`status --json`, the
    /// closing `--json`): each from a line "{" to a line "}".
    static func prettyJSONDocuments(in output: String) -> [String] {
        var documents: [String] = [], current: [Substring]?
        for line in output.split(separator: "\n", omittingEmptySubsequences: false) {
            if line == "{" { current = [] }
            current?.append(line)
            if line == "}", let lines = current {
                documents.append(lines.joined(separator: "\n"))
                current = nil
            }
        }
        return documents
    }
    var stderr: String { (try? String(contentsOf: errorFile, encoding: .utf8)) ?? "" }
    /// The bytes as written, for what a terminal would have been sent.
    var stdoutBytes: [UInt8] { [UInt8]((try? Data(contentsOf: outputFile)) ?? Data()) }
    var stderrBytes: [UInt8] { [UInt8]((try? Data(contentsOf: errorFile)) ?? Data()) }

    func type(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    func kill(_ signal: Int32) { Glibc.kill(process.processIdentifier, signal) }

    var processIdentifier: Int32 { process.processIdentifier }

    /// The processes this one started (the supervised engine), by their parent in /proc.
    var children: [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 1 && Int32(fields[1]) == process.processIdentifier
        }
    }

    /// How many descriptors process `pid` holds open on `path` for writing, as /proc says.
    static func writers(of path: String, in pid: Int32) -> Int {
        let folder = "/proc/\(pid)/fd"
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { fd in
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: "\(folder)/\(fd)")) == target,
                  let info = try? String(contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8) else { return false }
            // "flags:\t0100001": octal; O_WRONLY is 1 and O_RDWR 2 in the low bits.
            let line = info.split(separator: "\n").first { $0.hasPrefix("flags:") } ?? ""
            let flags = Int(line.split(separator: "\t").last.map(String.init) ?? "", radix: 8) ?? 0
            return flags & 3 != 0
        }.count
    }

    /// Waits until a recording-mode tap file reads as at least `seconds` long.
    func waitForTap(_ path: String, seconds: Double, timeout: Double = 60) -> Bool {
        eventually(within: timeout) {
            guard let reader = try? AudioFileReader(path: path) else { return false }
            return Double(reader.frames ?? 0) / Double(reader.sampleRate) >= seconds
        }
    }

    /// Waits until the file's first channel is `count` runs of equal samples,
    /// the last at least `frames` long: a console command took effect, and
    /// played that long.
    func waitForRuns(_ path: String, count: Int, lastAtLeast frames: Int, timeout: Double = 60) -> Bool {
        eventually(within: timeout) {
            guard let samples = try? Audio.read(path).channels.first else { return false }
            let runs = LiveRunTests.runs(of: samples)
            return runs.count == count && runs[count - 1].count >= frames
        }
    }

    /// A recording-mode file's length in frames as its header says (0 before it exists).
    static func frames(_ path: String) -> Int {
        (try? AudioFileReader(path: path))?.frames ?? 0
    }

    /// The exit status (the signal number when killed), or nil after `seconds`.
    func waitForExit(seconds: Double) -> Int32? {
        guard eventually(within: seconds, { !process.isRunning }) else { return nil }
        process.waitUntilExit()
        return process.terminationStatus
    }
}
