import CCoreShim
import Foundation
import HostCore
import JackIO
import TestSupport
import XCTest

/// `tap pause` / `tap resume` on a private dummy server, judged by the take:
/// the source is a counter (frame k holds k + 1, exactly, as a float), so
/// every recorded frame names the frame it was played as. The take must be
/// contiguous runs of the counter with nothing between them (no silence for
/// a pause), each gap as long as the stretch played while paused, and as
/// long in all as the recorded time the session reports. This process links
/// RealtimeSanitizer with halt_on_error, so reaching the end also means the
/// callback stayed clean through the pauses.
final class LiveSessionTapPauseTests: XCTestCase {
    /// 2^21: counter values up to 30 s at 48 kHz stay below 1 and exact.
    private static let scale: Float = 2_097_152
    private static let block = 256

    func testAPausedTapLeavesOutExactlyThePausedStretch() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the realtime check needs the sanitizer linked")
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: Self.block)
        let folder = try makeScratchFolder(prefix: "fxhost-jackio")
        let frames = 48_000 * 30
        let counter = (0..<frames).map { Float($0 + 1) / Self.scale }
        let clip = folder.appendingPathComponent("counter.wav").path
        try Audio(channels: [counter]).write(clip)
        let take = folder.appendingPathComponent("take.wav").path

        let graph = AudioGraph()
        let player = try graph.addFilePlayer("clip", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: frames))
        let main = try graph.addOutput("main", channels: 1)
        try graph.connect(player, to: main)
        try graph.installTap(on: player, file: take)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()

        func played() -> Int { Int((session.status().files[0].seconds * 48_000).rounded()) }
        func tap() -> LiveStatus.Tap { session.taps[0] }
        /// The frames played around a call: before it, and after it returned.
        func around(_ call: () throws -> Void) rethrows -> (before: Int, after: Int) {
            let before = played()
            try call()
            return (before, played())
        }

        var pauses: [(start: (before: Int, after: Int), end: (before: Int, after: Int))] = []
        for round in 0..<2 {
            XCTAssertTrue(eventually(within: 60) { tap().seconds >= 0.2 * Double(round + 1) })
            var paused: [LiveStatus.Tap] = []
            let start = try around { paused = try session.pauseTaps(node: "clip") }
            XCTAssertEqual(paused.map(\.state), [.paused])
            XCTAssertEqual(tap().state, .paused)
            XCTAssertEqual(session.status().taps.map(\.state), [.paused])
            XCTAssertThrowsError(try session.pauseTaps(node: "clip")) {
                XCTAssertEqual("\($0)", "the tap on `clip` is already paused; `tap resume clip` continues it")
            }
            if round == 1 {
                // A graph edit swaps in a new program; the pause belongs to
                // the recorder, which the edit keeps, so it holds through it.
                let swaps = session.status().programSwaps
                try session.disconnect(PortReference(node: "clip"), to: PortReference(node: "main"))
                try session.connect(PortReference(node: "clip"), to: PortReference(node: "main"), gainDecibels: -12)
                XCTAssertGreaterThan(session.status().programSwaps, swaps)
                XCTAssertEqual(tap().state, .paused)
            }
            // A quarter of a second of the source plays while the tap is paused.
            XCTAssertTrue(eventually(within: 60) { played() >= start.after + 12_000 })
            var resumed: [LiveStatus.Tap] = []
            let end = try around { resumed = try session.resumeTaps(node: "clip") }
            XCTAssertEqual(resumed.map(\.state), [.recording])
            XCTAssertThrowsError(try session.resumeTaps(node: "clip")) {
                XCTAssertEqual("\($0)", "the tap on `clip` is recording, not paused, so there is nothing to resume")
            }
            pauses.append((start, end))
        }
        XCTAssertThrowsError(try session.pauseTaps(node: "main")) {
            XCTAssertEqual("\($0)", "`main` has no tap; the taps are on `clip`")
        }
        XCTAssertThrowsError(try session.pauseTaps(node: "clpi")) {
            XCTAssertEqual("\($0)", "there is no node named `clpi` (did you mean `clip`?)")
        }
        let recordedBefore = tap().seconds
        XCTAssertTrue(eventually(within: 60) { tap().seconds >= recordedBefore + 0.2 })
        let stopped = try session.stopTaps(node: "clip")
        XCTAssertEqual(stopped.map(\.state), [.finished])
        XCTAssertThrowsError(try session.resumeTaps(node: "clip")) {
            XCTAssertEqual("\($0)", "the tap on `clip` is finished (its file is closed), so it cannot be resumed; "
                           + "`tap clip FILE` starts a new take")
        }
        let status = try session.finish()
        XCTAssertEqual(status.files.map(\.underrunFrames), [0], "the disk kept up, so silence would be the pause's")
        XCTAssertEqual(status.taps.map(\.state), [.finished])
        XCTAssertEqual(status.taps.map(\.droppedFrames), [0], "a pause drops nothing")

        let recorded = try Audio.read(take).channels[0]
        XCTAssertEqual(recorded.count, Int((status.taps[0].seconds * 48_000).rounded()), "the reported time is the take's")
        let values = recorded.map { Int(($0 * Self.scale).rounded()) }
        XCTAssertTrue(zip(values, recorded).allSatisfy { Float($0) / Self.scale == $1 }, "every frame is a counter value")
        XCTAssertFalse(values.contains(0), "no silence: a pause leaves a stretch out, it does not fill it")
        var runs: [ClosedRange<Int>] = []
        var first = values[0]
        for index in 1..<values.count where values[index] != values[index - 1] + 1 {
            runs.append(first...values[index - 1])
            first = values[index]
        }
        runs.append(first...values[values.count - 1])
        XCTAssertEqual(runs.count, 3, "recorded, paused, recorded, paused, recorded: \(runs)")
        guard runs.count == 3 else { return }
        XCTAssertEqual(runs[0].lowerBound, 1, "the take starts with the source's first frame")
        for (index, pause) in pauses.enumerated() {
            // Counter values are frames played + 1, so a run's last value is
            // the number of frames played when the tap stopped taking them.
            let lastKept = runs[index].upperBound, firstAfter = runs[index + 1].lowerBound
            XCTAssertGreaterThanOrEqual(lastKept, pause.start.before - Self.block, "pause \(index)")
            // A cycle's frames are counted as played before they are pushed,
            // so the one cycle under way at a switch may fall either side.
            XCTAssertLessThanOrEqual(lastKept, pause.start.after, "pause \(index)")
            XCTAssertGreaterThanOrEqual(firstAfter - 1, pause.end.before - Self.block, "resume \(index)")
            XCTAssertLessThanOrEqual(firstAfter - 1, pause.end.after, "resume \(index)")
            XCTAssertGreaterThanOrEqual(firstAfter - lastKept - 1, 12_000 - 2 * Self.block, "the paused stretch is left out")
        }
    }

    /// A take stopped, then a new tap to the same file: pause, resume and
    /// untap act on the new one only, and say so once.
    func testPauseResumeAndUntapActOnTheActiveTapOnly() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the realtime check needs the sanitizer linked")
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: Self.block)
        let folder = try makeScratchFolder(prefix: "fxhost-jackio")
        let clip = folder.appendingPathComponent("ones.wav").path
        try Audio(channels: [[Float](repeating: 0.5, count: 48_000 * 30)]).write(clip)
        let take = folder.appendingPathComponent("take.wav").path
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("clip", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: 48_000 * 30))
        try graph.connect(player, to: try graph.addOutput("main", channels: 1))
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()

        try session.startTap(PortReference(node: "clip"), file: take)
        XCTAssertTrue(eventually(within: 60) { session.taps.first?.seconds ?? 0 >= 0.1 })
        XCTAssertEqual(try session.stopTaps(node: "clip").map(\.file), [take])
        try session.startTap(PortReference(node: "clip"), file: take)
        XCTAssertEqual(session.taps.map(\.state), [.finished, .recording])

        XCTAssertEqual(try session.pauseTaps(node: "clip").map(\.state), [.paused])
        XCTAssertEqual(try session.resumeTaps(node: "clip").map(\.state), [.recording])
        XCTAssertEqual(try session.stopTaps(node: "clip").map(\.state), [.finished])
        XCTAssertEqual(session.taps.map(\.state), [.finished, .finished])
        _ = try session.finish()
    }

    /// A status lists the latest 32 stopped takes and counts the earlier
    /// ones, so a front end tapping and untapping all night cannot make
    /// every status grow; the closing status lists every take.
    func testAStatusListsTheLatestStoppedTakesAndCountsTheRest() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: Self.block)
        let folder = try makeScratchFolder(prefix: "fxhost-jackio")
        let clip = folder.appendingPathComponent("ones.wav").path
        try Audio(channels: [[Float](repeating: 0.5, count: 48_000)]).write(clip)
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("clip", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: 48_000))
        try graph.connect(player, to: try graph.addOutput("main", channels: 1))
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        let take = folder.appendingPathComponent("take.wav").path
        for _ in 0..<40 {
            try session.startTap(PortReference(node: "clip"), file: take)
            _ = try session.stopTaps(node: "clip")
        }
        try session.startTap(PortReference(node: "clip"), file: take)
        let status = session.status()
        XCTAssertEqual(status.taps.count, 32 + 1)
        XCTAssertEqual(status.earlierTakes, 8)
        // The latest: take-9.wav … take-40.wav, then the one recording (take-41.wav).
        XCTAssertEqual(status.taps.first?.file, folder.appendingPathComponent("take-9.wav").path)
        XCTAssertEqual(status.taps.last?.file, folder.appendingPathComponent("take-41.wav").path)
        XCTAssertEqual(status.taps.last?.state, .recording)
        let closing = try session.finish()
        XCTAssertEqual(closing.taps.count, 41)
        XCTAssertNil(closing.earlierTakes)
    }
}
