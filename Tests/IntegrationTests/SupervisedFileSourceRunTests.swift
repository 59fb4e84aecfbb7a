import Foundation
import XCTest

/// File and MIDI-file sources play on across an engine restart, where they
/// would have been had no crash come between, instead of from their
/// beginning. Before, both started again at 0.
final class SupervisedFileSourceRunTests: XCTestCase {
    /// Judged by arithmetic: the file is a ramp, sample k = (k + 1) / 2^24
    /// (exact in 32-bit float), played through a plugin that crashes (then
    /// left out, passing it through) into a tap. The take and the file both
    /// run on JACK's frame clock, so every sample of the take, before the
    /// silence and after it, is the ramp at the take's own frame plus one
    /// constant offset.
    func testAFileSourcePlaysOnWhereItWouldHaveBeen() throws {
        try playRampThroughACrash(stalling: false)
    }

    /// The same with an xrun before the crash: a plugin stalls 100 ms, the
    /// server plays cycles without fxhost, and the file falls that far
    /// behind where its start put it (as does the take, which skips them).
    /// The restart resumes the file where it was, so the offset still holds.
    /// Before, the restarted file jumped ahead by the frames the xrun skipped.
    func testAFileSourceResumesWhereItWasAfterAnXrun() throws {
        try playRampThroughACrash(stalling: true)
    }

    private func playRampThroughACrash(stalling: Bool) throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        let scale = Float(1 << 24)
        try Audio(channels: [(0..<48_000 * 30).map { Float($0 + 1) / scale }]).write(path("ramp.wav"))
        try """
        fxhost: 1
        nodes:
          song:  { file: ramp.wav }
          stall: { plugin: "\(CrashingPlugins.stallInRun)", params: { after: \(stalling ? 150 : 1_000_000) } }
          bad:   { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 400 } }
          out:   { output: 1 }
        chain: [song, stall, bad, out]
        taps:
          - { at: out, file: take.wav }
        """.write(toFile: path("song.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("song.yaml"), "--server", server.name, "--no-connect", "--quiet", "--json",
                               "--duration", "6s"],
                              environment: ["LV2_PATH": plugins.path, "TMPDIR": folder.path])
        XCTAssertEqual(run.waitForExit(seconds: 120), 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the engine restarted without it"), run.stderr)

        let take = try Audio.read(path("take.wav")).channels.first ?? []
        // The file's frame each sample of the take holds; nil for the silence.
        let frames = take.map { $0 == 0 ? nil : Int(($0 * scale).rounded()) - 1 }
        let offsets = frames.enumerated().compactMap { index, frame in frame.map { $0 - index } }
        let silence = frames.filter { $0 == nil }.count
        XCTAssertGreaterThan(silence, 0, "no gap: did the engine restart?")
        XCTAssertGreaterThan(offsets.count, 48_000 * 4, "sound before and after the crash")
        // One offset throughout: after the gap the file is as far on as the take.
        let counted = Dictionary(offsets.map { ($0, 1) }, uniquingKeysWith: +)
        XCTAssertEqual(counted.count, 1, "offsets of the file's frame from the take's (offset: samples): "
                       + counted.sorted { $0.value > $1.value }.prefix(5).map { "\($0.key): \($0.value)" }.joined(separator: ", "))
        let closing = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        let gaps = (closing["taps"] as? [[String: Any]])?.first?["gaps"] as? [[String: Any]] ?? []
        XCTAssertEqual(gaps.first?["frames"] as? Int, silence, "the silence is the gap the status reports")
        if stalling {
            let skipped = (closing["taps"] as? [[String: Any]])?.first?["skippedFrames"] as? Int ?? 0
            XCTAssertGreaterThan(skipped, 0, "the stall made the server play cycles without fxhost: \(run.stdout)")
        }
    }

    /// Judged by where sound starts: a MIDI file of notes at uneven
    /// spacings (2400 to 4200 frames) plays eg-sampler, whose click starts
    /// exactly at each note's frame, through a plugin that crashes, into a
    /// tap. The take runs on JACK's frame clock, so every click's onset,
    /// before the silence and after it, is a note's frame in the file plus
    /// one constant offset.
    func testAMIDIFilePlaysOnWhereItWouldHaveBeen() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        // 480 ticks a quarter at the default 120 bpm: a tick is 50 frames. The
        // spacings repeat only every 13 notes (some 2 s), so a file started
        // again at another time cannot fit the same offset.
        let ticks = (0..<300).map { 48 + ($0 * $0 % 13) * 3 }
        let noteFrames = Set(ticks.indices.map { 50 * ticks[...$0].reduce(0, +) })
        var events: [(delta: Int, bytes: [UInt8])] = ticks.map { (delta: $0, bytes: [0x90, 60, 100]) }
        events.append((delta: 48, bytes: [0xFF, 0x2F, 0x00]))  // End of Track
        try Data(MIDIFileBytes.format0(division: 480, events: events)).write(to: URL(fileURLWithPath: path("notes.mid")))
        try """
        fxhost: 1
        nodes:
          song:    { midi-file: notes.mid }
          sampler: { plugin: http://lv2plug.in/plugins/eg-sampler }
          bad:     { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 800 } }
          out:     { output: 1 }
        chain: [song, sampler, bad, out]
        taps:
          - { at: out, file: take.wav }
        """.write(toFile: path("notes.yaml"), atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", path("notes.yaml"), "--server", server.name, "--no-connect", "--quiet", "--json",
                               "--duration", "10s"],
                              environment: ["LV2_PATH": plugins.path + ":/usr/lib/lv2", "TMPDIR": folder.path])
        XCTAssertEqual(run.waitForExit(seconds: 120), 0, run.stderr)
        XCTAssertTrue(run.stderr.contains("the engine restarted without it"), run.stderr)

        // An onset: sound after at least 1000 silent frames (a click lasts 600 at most).
        let take = try Audio.read(path("take.wav")).channels.first ?? []
        var onsets: [Int] = [], silent = 1000
        for (frame, sample) in take.enumerated() {
            if sample != 0, silent >= 1000 { onsets.append(frame) }
            silent = sample == 0 ? silent + 1 : 0
        }
        XCTAssertGreaterThan(onsets.count, 100, "clicks before and after the crash")
        // The offset most onsets share (the first onset is some note's frame
        // plus it); every onset must be a note's frame plus it.
        func fitting(_ offset: Int) -> Int { onsets.filter { noteFrames.contains($0 - offset) }.count }
        let first = onsets.first ?? 0
        let offset = noteFrames.map { first - $0 }.max { fitting($0) < fitting($1) } ?? 0
        let closing = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any] ?? [:]
        let gaps = (closing["taps"] as? [[String: Any]])?.first?["gaps"] as? [[String: Any]] ?? []
        let gap = gaps.first?["atSeconds"] as? Double ?? .infinity
        // Where the take goes on after the gap, a click the new engine began
        // while the take waited for its ports may already sound: sound there
        // is no onset.
        let resumedAt = Int(((gaps.first?["atSeconds"] as? Double ?? -1) * 48_000).rounded()) + (gaps.first?["frames"] as? Int ?? 0)
        let strays = onsets.filter { !noteFrames.contains($0 - offset) && $0 != resumedAt }
        XCTAssertEqual(strays, [], "onsets that are no note's frame plus \(offset) (\(onsets.count) onsets, the take resumed at \(resumedAt))")
        XCTAssertGreaterThan(onsets.filter { Double($0) / 48_000 > gap }.count, 20, "clicks after the gap at \(gap) s")
    }
}
