import CCoreShim
import Foundation
import HostCore
import JackIO
import TestSupport
import XCTest

/// A tapped node's meter on a private dummy server, judged by arithmetic:
/// the source is a constant 0.5, whose peak is 20·log10(0.5) = -6.02 dBFS,
/// and it reaches the output 12 dB down (0.5·10^(-12/20), -18.02 dBFS), so
/// the tap's meter reads the node and not the output. This process links
/// RealtimeSanitizer with halt_on_error, so reaching the end also means the
/// callback's metering stayed clean.
final class LiveSessionTapMeterTests: XCTestCase {
    func testATappedNodesMeterReadsItsPeak() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the realtime check needs the sanitizer linked")
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try makeScratchFolder(prefix: "fxhost-jackio")
        let frames = 48_000 * 30
        let clip = folder.appendingPathComponent("half.wav").path
        try Audio(channels: [[Float](repeating: 0.5, count: frames), [Float](repeating: -0.25, count: frames)]).write(clip)

        let graph = AudioGraph()
        let player = try graph.addFilePlayer("clip", file: FilePlayerSource(
            path: clip, channels: 2, sampleRate: 48_000, frames: frames))
        let main = try graph.addOutput("main", channels: 2)
        try graph.connect(player, to: main, gainDecibels: -12)
        try graph.installTap(on: player, file: folder.appendingPathComponent("take.wav").path)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        defer { _ = try? session.finish() }

        let reader = session.addMeterReader()
        let expected = [20 * log10(0.5), 20 * log10(0.25)]
        let outputExpected = expected.map { $0 - 12 }
        var tapped: [(node: String, decibels: [Double])] = []
        var outputs: [(node: String, decibels: [Double])] = []
        XCTAssertTrue(eventually(within: 60) {
            tapped = session.tapMeters(reader)
            outputs = session.meters(reader)
            return tapped.first?.decibels.allSatisfy { $0 > -.infinity } == true
                && outputs.first?.decibels.allSatisfy { $0 > -.infinity } == true
        }, "the tap's meter never read the clip: \(tapped)")
        XCTAssertEqual(tapped.map(\.node), ["clip"])
        XCTAssertEqual(tapped.first?.decibels.count, 2)
        for (got, want) in zip(tapped.first?.decibels ?? [], expected) { XCTAssertEqual(got, want, accuracy: 0.01) }
        XCTAssertEqual(outputs.map(\.node), ["main"])
        for (got, want) in zip(outputs.first?.decibels ?? [], outputExpected) { XCTAssertEqual(got, want, accuracy: 0.01) }

        // Paused, the take stops but the node still sounds, and its meter says so.
        _ = try session.pauseTaps(node: "clip")
        _ = session.tapMeters(reader)
        XCTAssertTrue(eventually(within: 60) {
            tapped = session.tapMeters(reader)
            return tapped.first?.decibels.first.map { abs($0 - expected[0]) < 0.01 } == true
        }, "a paused tap's meter went quiet: \(tapped)")

        // A second reader takes nothing from the first.
        let other = session.addMeterReader()
        _ = session.tapMeters(other)
        XCTAssertTrue(eventually(within: 60) {
            session.tapMeters(other).first?.decibels.first.map { abs($0 - expected[0]) < 0.01 } == true
        })
        session.removeMeterReader(other)

        _ = try session.stopTaps(node: "clip")
        XCTAssertTrue(session.tapMeters(reader).isEmpty, "an untapped node has no meter")
    }
}
