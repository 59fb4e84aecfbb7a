import Foundation
import HostCore
import XCTest

/// The patch file as a live document, end to end on private dummy servers:
/// `fxhost run --watch` applies what is saved to the file while it plays,
/// and `save` writes the running state back, comments kept.
final class PatchFileRunTests: XCTestCase {
    private static let amp = "http://lv2plug.in/plugins/eg-amp"
    private static let minus6 = Float(pow(10, -6.0 / 20))

    /// A constant 0.5 through eg-amp (0 dB) to a mono output, the output tapped.
    private static func writeConstantPatch(_ folder: URL, body: String) throws -> String {
        try Audio.constant([0.5], frames: 48_000 * 60).write(folder.appendingPathComponent("dc.wav").path)
        let path = folder.appendingPathComponent("patch.yaml").path
        try body.write(toFile: path, atomically: false, encoding: .utf8)
        return path
    }

    private static let constantPatch = """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          amp: { plugin: \(amp), params: { gain: 0 } }
          main: { output: 1 }
        chain: [dc, amp, main]
        taps:
          - { at: main, file: take.wav }

        """

    /// Writes `text` over `path` as an editor that saves by renaming does.
    private static func writeByRenaming(_ text: String, to path: String) throws {
        let temporary = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(".patch.yaml.swp").path
        try text.write(toFile: temporary, atomically: false, encoding: .utf8)
        XCTAssertEqual(rename(temporary, path), 0)
    }

    /// A value edited in place (`gain: 0` → `-6`), then one written by
    /// temp-file-and-rename (`-12`): the tap's level follows by the
    /// arithmetic amounts, with nothing else in it.
    func testWatchAppliesValueEditsWrittenInPlaceAndByRenaming() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let take = folder.appendingPathComponent("take.wav").path
        let patch = try Self.writeConstantPatch(folder, body: Self.constantPatch)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet", "--watch"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.5))
        try Self.constantPatch.replacingOccurrences(of: "gain: 0", with: "gain: -6")
            .write(toFile: patch, atomically: false, encoding: .utf8)
        XCTAssertTrue(run.waitForRuns(take, count: 2, lastAtLeast: 24_000), run.stderr)
        try Self.writeByRenaming(Self.constantPatch.replacingOccurrences(of: "gain: 0", with: "gain: -12"), to: patch)
        XCTAssertTrue(run.waitForRuns(take, count: 3, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("amp:gain = -6.0\namp:gain = -12.0\n"), run.stdout)

        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.count, 3, "0 dB, -6 dB, -12 dB: \(runs.map { ($0.value, $0.count) })")
        guard runs.count == 3 else { return }
        XCTAssertEqual(runs[0].value, 0.5)
        XCTAssertEqual(runs[1].value, 0.5 * Self.minus6, accuracy: 1e-6)
        XCTAssertEqual(runs[2].value, 0.5 * Float(pow(10, -12.0 / 20)), accuracy: 1e-6)
    }

    /// A plugin node inserted into the chain, then the wiring changed (the
    /// node removed again and a send added): each is one graph edit, the
    /// tap of a constant holds exactly one run per state and no run of
    /// zeros (no gap), and the amp kept across the edits keeps its value.
    func testWatchInsertsANodeAndRewiresWithNoGap() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let take = folder.appendingPathComponent("take.wav").path
        let patch = try Self.writeConstantPatch(folder, body: Self.constantPatch)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet", "--watch"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.5))
        let inserted = Self.constantPatch
            // First among the nodes: every other node's line moves down.
            .replacingOccurrences(of: "nodes:\n", with: "nodes:\n  trim: { plugin: \(Self.amp), params: { gain: -6 } }\n")
            .replacingOccurrences(of: "chain: [dc, amp, main]", with: "chain: [dc, amp, trim, main]")
        try inserted.write(toFile: patch, atomically: false, encoding: .utf8)
        XCTAssertTrue(run.waitForRuns(take, count: 2, lastAtLeast: 24_000), run.stderr)
        let rewired = Self.constantPatch + "connect:\n  - { from: dc, to: main, gain: -6dB }\n"
        try Self.writeByRenaming(rewired, to: patch)
        XCTAssertTrue(run.waitForRuns(take, count: 3, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stdout.contains("patch file reloaded: added trim; rewired\n"), run.stdout)
        XCTAssertTrue(run.stdout.contains("patch file reloaded: removed trim; rewired\n"), run.stdout)

        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertFalse(runs.contains { $0.value == 0 }, "a gap: \(runs.map { ($0.value, $0.count) })")
        XCTAssertEqual(runs.count, 3, "the amp, then amp and trim, then the amp plus a send: \(runs.map { ($0.value, $0.count) })")
        guard runs.count == 3 else { return }
        XCTAssertEqual(runs[0].value, 0.5)
        XCTAssertEqual(runs[1].value, 0.5 * Self.minus6, accuracy: 1e-6)
        XCTAssertEqual(runs[2].value, 0.5 + 0.5 * Self.minus6, accuracy: 1e-6)
    }

    /// A file that is not YAML, then one naming a parameter the plugin
    /// lacks: each refused with `file:line:column`, the sound unchanged;
    /// the next good edit applies.
    func testWatchRefusesABrokenEditAndPlaysOn() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let take = folder.appendingPathComponent("take.wav").path
        let patch = try Self.writeConstantPatch(folder, body: Self.constantPatch)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet", "--watch"], console: true)
        XCTAssertTrue(run.waitForTap(take, seconds: 0.5))
        // Line 4: `  amp: { plugin: URI, params: { gain: -6 }` without its closing brace.
        try Self.constantPatch.replacingOccurrences(of: "params: { gain: 0 } }", with: "params: { gain: -6 }")
            .write(toFile: patch, atomically: false, encoding: .utf8)
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("\(patch):5:") }, run.stderr)
        // `gian` is on line 4, after "  amp: { plugin: <URI>, params: { ".
        let column = "  amp: { plugin: \(Self.amp), params: { ".count + 1
        try Self.writeByRenaming(Self.constantPatch.replacingOccurrences(of: "gain: 0", with: "gian: -6"), to: patch)
        XCTAssertTrue(eventually(within: 60) {
            run.stderr.contains("\(patch):4:\(column): node `amp`: `Simple Amplifier` has no parameter `gian` (did you mean `gain`?)")
        }, run.stderr)
        let refused = LiveRun.frames(take)
        XCTAssertTrue(run.waitForTap(take, seconds: Double(refused) / 48_000 + 0.5), "the sound plays on")
        try Self.constantPatch.replacingOccurrences(of: "gain: 0", with: "gain: -6").write(toFile: patch, atomically: false, encoding: .utf8)
        XCTAssertTrue(run.waitForRuns(take, count: 2, lastAtLeast: 24_000), run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the running patch plays on unchanged"), run.stderr)

        let runs = LiveRunTests.runs(of: try Audio.read(take).channels[0])
        XCTAssertEqual(runs.count, 2, "0 dB through both refusals, then -6 dB: \(runs.map { ($0.value, $0.count) })")
        guard runs.count == 2 else { return }
        XCTAssertEqual(runs[0].value, 0.5)
        XCTAssertGreaterThan(runs[0].count, refused, "the refusals left the level alone")
        XCTAssertEqual(runs[1].value, 0.5 * Self.minus6, accuracy: 1e-6)
    }

    /// `set`, `bypass` and `connect` change a playing patch; `save` writes
    /// them over the file, its comments kept (one on a changed line, others
    /// elsewhere: the text is compared with one written by hand), and the
    /// saved patch rendered offline holds the same samples as a live tap
    /// taken after the changes (all stateless: eg-amp and a send, so the
    /// tap lines up with the render wherever it starts).
    func testSaveWritesTheLiveStateThatRendersAsItPlayedWithCommentsKept() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 1, frames: 48_000 * 60, amplitude: 0.4, seed: 5).write(path("noise.wav"))
        let original = """
            # Two amps on a noise file.
            fxhost: 1
            nodes:
              src: { file: noise.wav }   # a minute of noise
              amp:
                plugin: \(Self.amp)
                params:
                  gain: 0          # changed live
              amp2: { plugin: \(Self.amp), params: { gain: -3 } }  # bypassed live
              main: { output: 1 }
            # the signal path
            chain: [src, amp, amp2, main]

            """
        try original.write(toFile: path("patch.yaml"), atomically: false, encoding: .utf8)
        let run = try LiveRun(["run", path("patch.yaml"), "--server", server.name, "--quiet"], console: true)
        run.type("set amp gain -6")
        run.type("bypass amp2 on")
        run.type("connect src main -12dB")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("connected src → main (-12.0 dB)") }, run.stdout + run.stderr)
        run.type("tap main \(path("live.wav"))")
        XCTAssertTrue(run.waitForTap(path("live.wav"), seconds: 1))
        run.type("save")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("saved the running patch to \(path("patch.yaml"))") },
                      run.stdout + run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)

        XCTAssertEqual(try String(contentsOfFile: path("patch.yaml"), encoding: .utf8), """
            # Two amps on a noise file.
            fxhost: 1
            nodes:
              src: { file: noise.wav }   # a minute of noise
              amp:
                plugin: \(Self.amp)
                params:
                  gain: -6          # changed live
              amp2: { plugin: \(Self.amp), params: { gain: -3 }, bypass: true }  # bypassed live
              main: { output: 1 }
            # the signal path
            chain: [src, amp, amp2, main]
            connect:
              - { from: src, to: main, gain: -12dB }
            taps:
              - { at: main, file: live.wav }

            """)
        // The render writes the saved tap too (over live.wav): read the live take first.
        let live = try Audio.read(path("live.wav")).channels[0]
        try Tools.fxhost(["render", path("patch.yaml"), "-o", path("offline.wav"), "--tail", "0", "--quiet"])
        let render = try Audio.read(path("offline.wav")).channels[0]
        // The live tap began mid-file: find its first samples in the render.
        let probe = Array(live[0..<256])
        guard let offset = (0...(render.count - probe.count)).first(where: {
            render[$0] == probe[0] && Array(render[$0..<($0 + probe.count)]) == probe
        }) else { return XCTFail("the live tap's opening is nowhere in the offline render of the saved patch") }
        let overlap = min(live.count, render.count - offset)
        XCTAssertGreaterThan(overlap, 48_000)
        XCTAssertEqual(Array(live[0..<overlap]), Array(render[offset..<(offset + overlap)]),
                       "the saved patch renders what played live")
    }

    /// A `--chain` run has no file to save over: `save` says so in one
    /// sentence, and `save FILE` writes the chain as a patch that `check` reads.
    func testSaveInAChainRunNeedsAFile() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        let saved = folder.appendingPathComponent("chain.yaml").path
        let run = try LiveRun(["run", "--chain", "eg-amp gain=-6", "--server", server.name, "--quiet", "--no-connect"],
                              console: true)
        run.type("save")
        run.type("set eg-amp gain -3")
        run.type("save \(saved)")
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("saved the running patch to \(saved)") }, run.stdout + run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("this run plays a --chain, not a patch file, so `save` needs a file to write"),
                      run.stderr)
        let text = try String(contentsOfFile: saved, encoding: .utf8)
        XCTAssertTrue(text.contains("params: { gain: -3 }"), text)
        XCTAssertEqual(try Tools.fxhost(["check", saved]).status, 0)
    }
}
