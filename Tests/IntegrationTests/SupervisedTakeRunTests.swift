import Foundation
import XCTest

/// A plugin that crashes or hangs the engine of `fxhost run` while a tap
/// records: the supervisor, which writes the take, restarts the engine
/// without it, and the take goes on in the same file. Judged against arithmetic: the frames before the
/// crash are the blocks the plugin let pass (N × 256, every one, when the
/// tap is before it: the supervisor writes what the dead engine had not), the level is the
/// constant fed through -6 dB (0.5 × 0.501187), and the one stretch of
/// silence starts where, and is as long as, the status reports. Before, the
/// run ended with the crash (exit 1) and the take stopped there.
final class SupervisedTakeRunTests: XCTestCase {
    /// -6 dB as a factor: 10^(-6/20).
    private static let minusSixDecibels: Float = 0.501_187_2

    func testATakeGoesOnInTheSameFileAcrossACrashWithOneGapOfTheLengthTheStatusReports() throws {
        let (run, folder) = try playThrough(CrashingPlugins.crashInRun, seconds: 5)
        let error = try oneErrorLine(of: run)
        XCTAssertTrue(error.hasPrefix("fxhost: error: node `bad` (Crashy Effect) crashed in run() (SIGSEGV); "
                                      + "the engine restarted without it in "), run.stderr)
        XCTAssertTrue(error.contains(" s; `restore bad` tries it again; the backtrace is in \(folder.path)/fxhost-crash-"),
                      run.stderr)
        try assertOneTakeWithOneGap(run, folder, framesBefore: 200 * 256)
    }

    /// Nothing the dead engine rendered is lost. The constant is tapped
    /// before the plugin, from the first cycle on; the plugin passes 800
    /// blocks of 64 frames and crashes in the 801st, whose taps are never
    /// pushed (they follow the whole graph). So the take holds exactly
    /// 800 × 64 frames before its one silence. Before the supervisor
    /// finished the takes from the shared rings, what the engine's writer
    /// had not yet written (its 20 ms batch: up to 15 such blocks) went into
    /// the silence instead; small blocks make a crash just after a batch,
    /// which lost nothing, rare (about one run in fifteen).
    func testEveryBlockRenderedBeforeACrashIsInTheTake() throws {
        let (run, folder) = try playThrough(CrashingPlugins.crashInRun, seconds: 5, blocks: (800, 64), tapBeforeThePlugin: true)
        XCTAssertTrue(try oneErrorLine(of: run).hasPrefix("fxhost: error: node `bad` (Crashy Effect) crashed in run() (SIGSEGV); "),
                      run.stderr)
        try assertOneTakeWithOneGap(run, folder, framesBefore: 800 * 64, exactly: true)
    }

    /// The take is written by the supervising process, not by the engine
    /// the plugins run in: as /proc shows, while the take grows the
    /// engine holds no descriptor open on it for writing, and the
    /// supervisor holds one.
    func testTheSupervisorWritesTheTakeAndTheEngineNeverOpensItForWriting() throws {
        let (run, folder) = try playThrough(CrashingPlugins.crashInRun, seconds: 4, blocks: (1_000_000, 256))
        let take = folder.appendingPathComponent("take.wav").path
        XCTAssertTrue(run.waitForTap(take, seconds: 0.5), run.stderr)
        let engines = run.children
        XCTAssertEqual(engines.count, 1, "one engine process")
        XCTAssertEqual(LiveRun.writers(of: take, in: try XCTUnwrap(engines.first)), 0, "the engine does not write the take")
        XCTAssertEqual(LiveRun.writers(of: take, in: run.processIdentifier), 1, "the supervisor does")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertGreaterThan(try Audio.read(take).frames, 48_000)
    }

    /// A FLAC take, which no writer can open again to append to, goes on in
    /// the same file across a crash: the supervisor held it open. Before,
    /// a new take (`take-2.flac`) began after the restart.
    func testAFLACTakeGoesOnInTheSameFileAcrossACrash() throws {
        let (run, folder) = try playThrough(CrashingPlugins.crashInRun, seconds: 5, tapFile: "take.flac")
        XCTAssertTrue(try oneErrorLine(of: run).hasPrefix("fxhost: error: node `bad` (Crashy Effect) crashed in run() (SIGSEGV); "),
                      run.stderr)
        // 16-bit FLAC: the level within one step.
        try assertOneTakeWithOneGap(run, folder, framesBefore: 200 * 256, file: "take.flac", accuracy: 1.0 / 32_768)
    }

    /// A plugin stuck in run() is found by the engine's hang watch (no
    /// cycle for 2 s while the server plays on), named as a crash is, and
    /// the take goes on after a gap of at least those 2 s.
    func testAHangIsHandledAsACrashAndTheTakeGoesOn() throws {
        let (run, folder) = try playThrough(CrashingPlugins.spinInRun, seconds: 7)
        XCTAssertTrue(try oneErrorLine(of: run).hasPrefix("fxhost: error: node `bad` (Spinning Effect) hung in run() "
                                                          + "(no cycle completed for 2 s); the engine restarted without it in "),
                      run.stderr)
        // The backtrace is the stuck thread's own: the plugin's library is on it.
        let logs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("fxhost-crash-") }
        XCTAssertEqual(logs.count, 1, "\(logs)")
        let log = try String(contentsOfFile: folder.appendingPathComponent(logs.first ?? "none").path, encoding: .utf8)
        XCTAssertTrue(log.contains("Backtrace of the thread that hung"), log)
        XCTAssertTrue(log.contains("libcrashy.so"), log)
        let gap = try assertOneTakeWithOneGap(run, folder, framesBefore: 200 * 256)
        XCTAssertGreaterThanOrEqual(gap, 2 * 48_000, "the 2 s without a cycle are in the gap")
    }

    /// The gap's length judged by a clock outside fxhost: a JACK client of
    /// its own (python's JACK-Client) plays a ramp that is a function of
    /// JACK's frame time, 0.25 + 0.5 × (t mod 48000) / 48000. fxhost records
    /// it through a crash; the first sample after the silence must be the
    /// ramp as many frames after the last one before it as the file holds
    /// between them: so the silence stands for exactly the frames that went by.
    func testTheGapIsExactlyAsLongAsTheTimeTheServerPlayed() throws {
        try recordRampThroughCrashes(1)
    }

    /// The same through two crashes of the same take (`restore` plays the
    /// plugin again, and it crashes again 200 blocks later): the second
    /// restart continues a take the first one continued.
    func testTwoCrashesInOneTakeKeepItOnTheClock() throws {
        try recordRampThroughCrashes(2)
    }

    private func recordRampThroughCrashes(_ crashes: Int) throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        let ramp = Process()
        let command = JackServerProcess.launchCommand(executable: "/usr/bin/python3", arguments: ["-c", Self.rampClient, server.name])
        ramp.executableURL = URL(fileURLWithPath: command[0])
        ramp.arguments = Array(command.dropFirst())
        let rampOutput = folder.appendingPathComponent("ramp.log")
        _ = FileManager.default.createFile(atPath: rampOutput.path, contents: nil)
        ramp.standardOutput = try FileHandle(forWritingTo: rampOutput)
        ramp.standardError = ramp.standardOutput
        try ramp.run()
        defer {
            ramp.terminate()
            ramp.waitUntilExit()
        }
        func rampSaid() -> String { (try? String(contentsOf: rampOutput, encoding: .utf8)) ?? "" }
        XCTAssertTrue(eventually(within: 30) { rampSaid().contains("ready") || !ramp.isRunning },
                      "python's JACK-Client (scripts/install-deps.sh) must be installed: \(rampSaid())")
        XCTAssertTrue(rampSaid().contains("ready"), rampSaid())
        try """
        fxhost: 1
        nodes:
          in:  { input: [ramp:out] }
          bad: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 200 } }
          out: { output: 1 }
        chain: [in, bad, out]
        taps:
          - { at: bad, file: take.wav }
        """.write(toFile: path("ramp.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("ramp.yaml"), "--server", server.name, "--quiet", "--json", "--duration", "60s"],
                              console: true, environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        func restarts() -> Int { run.stderr.components(separatedBy: "the engine restarted without it").count - 1 }
        for crash in 1...crashes {
            XCTAssertTrue(eventually(within: 30) { restarts() == crash }, run.stderr)
            if crash < crashes { run.type("restore bad") }
        }
        XCTAssertTrue(eventually(within: 30) { (try? Audio.read(path("take.wav")).frames) ?? 0 > (crashes + 2) * 48_000 })
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        // Silent until the input is connected to the ramp, just after the engine starts.
        let whole = try Audio.read(path("take.wav")).channels.first ?? []
        let samples = Array(whole.drop { $0 == 0 })
        XCTAssertGreaterThan(samples.count, 2 * 48_000)
        guard let first = samples.first, first >= 0.25 else { return XCTFail("the take starts with the ramp: \(samples.prefix(4))") }
        // Each sample's step of the ramp: the frame time it was played at, modulo 48000.
        func step(_ sample: Float) -> Int { Int(((Double(sample) - 0.25) / 0.5 * 48_000).rounded()) }
        let closing = try JSONSerialization.jsonObject(with: Data((LiveRun.prettyJSONDocuments(in: run.stdout).last ?? "{}").utf8)) as? [String: Any] ?? [:]
        let gaps = (closing["taps"] as? [[String: Any]])?.first?["gaps"] as? [[String: Any]] ?? []
        XCTAssertEqual(gaps.count, crashes, "one gap per crash")
        // In the take itself: one long silence per crash, each as long as its gap (a
        // block or two more where a loaded machine's connection came late), and no other.
        let silences = LiveRunTests.runs(of: samples).filter { $0.value == 0 && $0.count > 4 * 256 }.map(\.count)
        let gapLengths = gaps.map { $0["frames"] as? Int ?? -1 }
        XCTAssertEqual(silences.count, crashes, "silences in the take: \(silences), gaps: \(gapLengths)")
        for (silence, gap) in zip(silences, gapLengths) {
            XCTAssertTrue(silence >= gap && silence < gap + 4 * 256, "a silence of \(silence) frames for a gap of \(gap)")
        }
        // Each gap where the status puts it: silent throughout, and the first
        // sample after it the ramp as many frames on from the last one before
        // it as the file holds between them, so the silence stands for exactly
        // the time that went by. (A continued take waits for the new engine's
        // input to be connected: nothing but the gap is silent there.)
        for gap in gaps {
            let at = Int(((gap["atSeconds"] as? Double ?? -1) * 48_000).rounded()), frames = gap["frames"] as? Int ?? -1
            guard at > 0, frames > 0, at + frames < whole.count else { XCTFail("a gap outside the take: \(gap)"); continue }
            XCTAssertEqual(whole[at..<(at + frames)].filter { $0 != 0 }.count, 0, "the gap at \(at) is silent")
            XCTAssertNotEqual(whole[at - 1], 0, "sound just before the gap at \(at)")
            // Sound from the first block after it; a loaded machine may let a block or two
            // pass before the connection (or the ramp's client) delivers.
            guard let after = whole[(at + frames)...].firstIndex(where: { $0 != 0 }), after - (at + frames) < 4 * 256 else {
                XCTFail("no sound within 4 blocks after the gap at \(at)")
                continue
            }
            XCTAssertEqual(step(whole[after]), (step(whole[at - 1]) + after - (at - 1)) % 48_000,
                           "after the gap at \(at) (\(frames) frames) the take is on the server's clock again")
        }
        // Between neighbours the ramp moves one step, but where the server
        // skipped a cycle or the ramp's own client was late under load (an
        // xrun): that is the machine's, and only most of the take is judged.
        var steady = 0
        for index in samples.indices.dropFirst() where step(samples[index]) == (step(samples[index - 1]) + 1) % 48_000 {
            steady += 1
        }
        XCTAssertGreaterThan(steady, samples.count * 9 / 10, "the take is the ramp, sample after sample")
    }

    /// Plays a ramp keyed to JACK's frame clock on `ramp:out` until terminated.
    private static let rampClient = """
        import jack, signal, sys
        client = jack.Client("ramp", servername=sys.argv[1], no_start_server=True)
        port = client.outports.register("out")
        @client.set_process_callback
        def process(frames):
            samples, start = memoryview(port.get_buffer()).cast("f"), client.last_frame_time
            for index in range(frames):
                samples[index] = 0.25 + 0.5 * ((start + index) % 48000) / 48000.0
        client.activate()
        print("ready", flush=True)
        signal.sigwait({signal.SIGTERM, signal.SIGINT})
        client.deactivate()
        client.close()
        """

    /// The run's one error line, once it ended with status 0 (it played on).
    private func oneErrorLine(of run: LiveRun) throws -> String {
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        let errors = run.stderr.split(separator: "\n").filter { $0.hasPrefix("fxhost: error:") }
        XCTAssertEqual(errors.count, 1, run.stderr)
        return String(try XCTUnwrap(errors.first))
    }

    /// Runs a constant 0.5 through `plugin` (which fails after 200 blocks
    /// of 256 frames), a -6 dB gain and an output, tapping the gain.
    /// `blocks`: the plugin's `after` and the server's block size. With
    /// `tapBeforeThePlugin` the gain comes first: the take is what the plugin was given.
    private func playThrough(_ plugin: String, seconds: Int, blocks: (count: Int, frames: Int) = (200, 256),
                             tapBeforeThePlugin: Bool = false, tapFile: String = "take.wav") throws -> (LiveRun, URL) {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: blocks.frames)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try Audio.constant([0.5], frames: 48_000 * 30).write(path("dc.wav"))
        try """
        fxhost: 1
        nodes:
          dc:  { file: dc.wav }
          bad: { plugin: "\(plugin)", params: { after: \(blocks.count) } }
          g:   { gain: -6 }
          out: { output: 1 }
        chain: \(tapBeforeThePlugin ? "[dc, g, bad, out]" : "[dc, bad, g, out]")
        taps:
          - { at: g, file: \(tapFile) }
        """.write(toFile: path("crash.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("crash.yaml"), "--server", server.name, "--no-connect", "--quiet", "--json",
                               "--duration", "\(seconds)s"],
                              environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        addTeardownBlock { _ = server }
        return (run, folder)
    }

    /// One take, `take.wav` (no numbered second one): `framesBefore` frames
    /// of the constant, one stretch of silence of the length `run --json`
    /// reports, then the constant again (the culprit bypassed passes it
    /// through). Returns the gap's length in frames.
    @discardableResult
    private func assertOneTakeWithOneGap(_ run: LiveRun, _ folder: URL, framesBefore: Int, exactly: Bool = false,
                                         file: String = "take.wav", accuracy: Float = 1e-6) throws -> Int {
        let takes = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("take") }
        XCTAssertEqual(takes, [file])
        let closing = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        let crashes = closing["crashes"] as? [[String: Any]] ?? []
        XCTAssertEqual(crashes.count, 1, run.stdout)
        XCTAssertEqual(crashes.first?["node"] as? String, "bad")
        XCTAssertEqual(crashes.first?["leftOut"] as? Bool, true)
        XCTAssertEqual(closing["leftOut"] as? [String], ["bad"])
        let taps = closing["taps"] as? [[String: Any]] ?? []
        XCTAssertEqual(taps.count, 1, run.stdout)
        let gaps = taps.first?["gaps"] as? [[String: Any]] ?? []
        XCTAssertEqual(gaps.count, 1, run.stdout)
        let gapFrames = gaps.first?["frames"] as? Int ?? -1
        let gapStart = gaps.first?["atSeconds"] as? Double ?? -1

        let level = 0.5 * Self.minusSixDecibels
        let samples = try Audio.read(folder.appendingPathComponent(file).path).channels.first ?? []
        let runs = LiveRunTests.runs(of: samples)
        XCTAssertEqual(runs.count, 3, "the constant, one silence, the constant: \(runs.prefix(6))")
        guard runs.count == 3 else { return gapFrames }
        XCTAssertEqual(runs[0].value, level, accuracy: accuracy)
        if exactly {
            XCTAssertEqual(runs[0].count, framesBefore, "every frame rendered before the crash, and no more")
        } else {
            XCTAssertLessThanOrEqual(runs[0].count, framesBefore, "no more than the plugin let through")
        }
        XCTAssertEqual(Double(runs[0].count) / 48_000, gapStart, accuracy: 1e-9, "the silence starts where the status says")
        XCTAssertEqual(runs[1].value, 0)
        XCTAssertEqual(runs[1].count, gapFrames, "the silence is as long as the status says")
        XCTAssertEqual(runs[2].value, level, accuracy: accuracy)
        XCTAssertGreaterThan(runs[2].count, 48_000, "the take went on after the restart")
        return gapFrames
    }
}
