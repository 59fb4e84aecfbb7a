import CJack
import Foundation
import HostCore
import JackIO
import TestSupport
import XCTest

/// LiveSession on private dummy servers, measured from outside: port names
/// and connections read back from JACK, audio from loopback clients and taps.
/// RealtimeSanitizer is linked into this process with halt_on_error, so any
/// allocation or lock in the callback would end the run.
final class LiveSessionTests: XCTestCase {
    func testPortsAreNamedAfterTheNodesAndConnectedAsThePatchSays() throws {
        let server = try JackServerProcess(bufferFrames: 256)
        let loopback = try LoopbackClient(server: server.name, constant: 1, channels: 2, capacity: 48_000 * 5)
        let graph = AudioGraph()
        // A pattern for the input, exact names for the outputs.
        let guitar = try graph.addInput("guitar", channels: 1, ports: ["loop.*:source"])
        let trim = try graph.addGain("trim", decibels: -6)
        let main = try graph.addOutput("main", channels: 2, ports: ["loopback:record_1", "loopback:record_2"])
        try graph.connect(guitar, to: trim)
        try graph.connect(trim, to: main)

        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server, clientName: "fx"))
        XCTAssertEqual(session.inputs.map(\.port.name), ["fx:guitar"])
        XCTAssertEqual(session.outputs.map(\.port.name), ["fx:main_1", "fx:main_2"])
        try session.start()
        XCTAssertEqual(session.inputs.flatMap { session.client.connections(of: $0.port) }, [],
                       "nothing is connected until connectPorts (what --no-connect skips)")
        try session.connectPorts()
        XCTAssertEqual(session.client.connections(of: session.inputs[0].port), ["loopback:source"])
        XCTAssertEqual(session.client.connections(of: session.outputs[0].port), ["loopback:record_1"])
        XCTAssertEqual(session.client.connections(of: session.outputs[1].port), ["loopback:record_2"])

        // The constant 1 comes back at -6 dB on both channels.
        XCTAssertTrue(eventually(within: 60) { (loopback.latestFrame ?? [0, 0]).allSatisfy { $0 != 0 } })
        let expected = Float(Decibels.toLinear(-6))
        XCTAssertEqual(loopback.latestFrame!, [expected, expected])
        try session.finish()
    }

    /// A file source plays from its start offset in realtime, through the
    /// disk thread's ring, sample for sample: the tap starts with the
    /// program's first block, so it holds exactly `start × rate` frames of
    /// silence and then the file.
    func testAFileSourcePlaysFromItsStartOffsetSampleForSample() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try temporaryFolder()
        let ramp = (0..<24_000).map { Float($0 + 1) / 32_768 }
        let clip = folder.appendingPathComponent("ramp.wav").path
        try Audio(channels: [ramp]).write(clip)
        let tapFile = folder.appendingPathComponent("tap.wav").path

        let graph = AudioGraph()
        let player = try graph.addFilePlayer("clip", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: ramp.count, startSeconds: 0.1))
        let main = try graph.addOutput("main", channels: 1)
        try graph.connect(player, to: main)
        try graph.installTap(on: player, file: tapFile)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        XCTAssertTrue(eventually(within: 60) { session.taps.first!.seconds >= 0.8 })
        let status = try session.finish()
        XCTAssertEqual(status.files.map(\.underrunFrames), [0])

        let recorded = try Audio.read(tapFile).channels[0]
        XCTAssertGreaterThanOrEqual(recorded.count, 4_800 + ramp.count)
        XCTAssertEqual(Array(recorded[0..<4_800]), [Float](repeating: 0, count: 4_800))
        XCTAssertEqual(Array(recorded[4_800..<(4_800 + ramp.count)]), ramp)
        XCTAssertTrue(recorded[(4_800 + ramp.count)...].allSatisfy { $0 == 0 }, "silence after the file ends")
    }

    /// JACK changes the period: the plan is rebuilt at the new size off the
    /// realtime thread, published, and the sound goes on.
    /// A file source resumed from an origin one second back (as a restarted
    /// engine's is), under the sanitizer like every session here: its first
    /// fills skip to where the origin puts the clock, so the tap's first
    /// sample is the ramp's frame (its start frame − the origin), exactly.
    /// The ramp's frame k is (k + 1) / 2^24.
    func testAResumedFileSourcePlaysFromWhereItsOriginPutsTheClock() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try temporaryFolder()
        let clip = folder.appendingPathComponent("ramp.wav").path
        try Audio(channels: [(0..<48_000 * 10).map { Float($0 + 1) / Float(1 << 24) }]).write(clip)
        // The tap's samples that are not the ramp's frame from `frame` on.
        func wrong(_ recorded: [Float], from frame: Int) -> Int {
            recorded.prefix(1000).enumerated().filter { (offset: Int, sample: Float) in
                sample != Float(frame + offset + 1) / Float(1 << 24)
            }.count
        }
        // A new session while the take fails and the server reported xruns
        // (see `retakingOnXruns`: a skipped cycle moves the clock on under the tap).
        let ((recorded, frame), note) = try retakingOnXruns({ (attempt: Int) throws -> (([Float], Int), xruns: Int) in
            let tapFile = folder.appendingPathComponent("tap-\(attempt).wav").path
            let (session, clock, origin) = try startResumedRamp(clip, server: server, tapFile: tapFile)
            XCTAssertTrue(eventually(within: 60) { session.taps.first!.seconds >= 0.3 })
            let start = try XCTUnwrap(session.taps.first?.startFrame)
            let xruns = session.status().xruns
            try session.finish()
            // Closed now: the next try's clients take the same names.
            session.client.close()
            clock.close()
            return ((try Audio.read(tapFile).channels[0], (start - origin) & 0xFFFF_FFFF), xruns)
        }, passes: { (take: ([Float], Int)) in take.1 >= 48_000 && wrong(take.0, from: take.1) == 0 })
        XCTAssertGreaterThanOrEqual(frame, 48_000, "a second or more into the file" + note)
        XCTAssertEqual(recorded.first, Float(frame + 1) / Float(1 << 24), "the file at its origin's frame" + note)
        XCTAssertEqual(wrong(recorded, from: frame), 0, "and on from there, frame by frame" + note)
    }

    /// With no tap, a resumed file source still plays where its origin puts
    /// JACK's clock, heard from outside: the callback reads the frame time
    /// while a source's clock has a task, though it skips the read in a
    /// cycle nothing needs it (fails if the clock's task is not asked for).
    func testAResumedFileSourceWithNoTapPlaysWhereItsOriginPutsTheClock() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try temporaryFolder()
        let clip = folder.appendingPathComponent("ramp.wav").path
        try Audio(channels: [(0..<48_000 * 10).map { Float($0 + 1) / Float(1 << 24) }]).write(clip)
        // The first frame heard and the first 2048 heard, their times since
        // the origin, and those that are not the file's frame at that time.
        func heard(_ recorded: [Float], _ times: [Int], _ origin: Int) -> (first: Int?, heard: [Int], since: (Int) -> Int, wrong: [Int]) {
            let since = { (index: Int) in (times[index] - origin) & 0xFFFF_FFFF }
            guard let first = recorded.firstIndex(where: { $0 > 0 }) else { return (nil, [], since, []) }
            let heard = Array(recorded.indices.filter { $0 >= first && recorded[$0] > 0 }.prefix(2048))
            return (first, heard, since, heard.filter { recorded[$0] != Float(since($0) + 1) / Float(1 << 24) })
        }
        // A new session while the take fails and the server reported xruns
        // (see `retakingOnXruns`: a skipped cycle moves the clock on while the file plays on).
        let ((recorded, times, origin), note) = try retakingOnXruns({ (_: Int) throws -> (([Float], [Int], Int), xruns: Int) in
            let loopback = try LoopbackClient(server: server.name, channels: 1, capacity: 48_000 * 30)
            let (session, clock, origin) = try startResumedRamp(clip, server: server, ports: ["loopback:record_1"])
            XCTAssertTrue(eventually(within: 60) { (loopback.latestFrame?[0] ?? 0) > 0 })
            let mark = loopback.recordedFrames
            XCTAssertTrue(eventually(within: 60) { loopback.recordedFrames >= mark + 8192 })
            let recorded = loopback.recording()[0], times = loopback.frameTimes()
            let xruns = session.status().xruns
            try session.finish()
            // Closed now: the next try's clients take the same names.
            session.client.close()
            clock.close()
            loopback.client.close()
            return ((recorded, times, origin), xruns)
        }, passes: { (take: ([Float], [Int], Int)) in
            let (first, heard, since, wrong) = heard(take.0, take.1, take.2)
            return first.map { since($0) >= 48_000 } == true && heard.count == 2048 && wrong.isEmpty
        })

        let (first, played, since, wrong) = heard(recorded, times, origin)
        let start = try XCTUnwrap(first, "the file was heard" + note)
        XCTAssertEqual(played.count, 2048, "the file was heard" + note)
        XCTAssertGreaterThanOrEqual(since(start), 48_000, "a second or more into the file" + note)
        XCTAssertEqual(wrong.count, 0, "every frame heard is the file's frame at its time since the origin; first wrong: "
                       + (wrong.first.map { "\(recorded[$0] * Float(1 << 24) - 1) at \(since($0))" } ?? "none") + note)
    }

    /// A session playing the 10 s ramp `clip`, resumed with its origin a
    /// second before now (as JACK's clock, read by the `clock` client, says),
    /// into `main`, tapped to `tapFile` or connected to `ports`: started.
    private func startResumedRamp(_ clip: String, server: JackServerProcess, tapFile: String? = nil, ports: [String] = [])
        throws -> (session: LiveSession, clock: JackClient, origin: Int) {
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("ramp", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: 48_000 * 10))
        let main = try graph.addOutput("main", channels: 1, ports: ports)
        try graph.connect(player, to: main)
        if let tapFile { try graph.installTap(on: main, file: tapFile) }
        let clock = try JackClient(name: "clock", server: server.name)
        let origin = (try XCTUnwrap(clock.frameTime) - 48_000) & 0xFFFF_FFFF
        var options = LiveSession.Options(server: server)
        options.resumedSources = ["ramp": origin]
        let session = try LiveSession(graph: graph, options: options)
        try session.start()
        if !ports.isEmpty { try session.connectPorts() }
        return (session, clock, origin)
    }

    func testABufferSizeChangeRebuildsThePlanAtTheNewSize() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try temporaryFolder()
        let level: Float = 0.5
        let clip = folder.appendingPathComponent("dc.wav").path
        try Audio(channels: [[Float](repeating: level, count: 48_000 * 4)]).write(clip)
        let tapFile = folder.appendingPathComponent("tap.wav").path
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("dc", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: 48_000 * 4))
        let trim = try graph.addGain("trim", decibels: -6)
        let main = try graph.addOutput("main", channels: 1)
        try graph.connect(player, to: trim)
        try graph.connect(trim, to: main)
        try graph.installTap(on: main, file: tapFile)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        XCTAssertEqual(session.plan.format.maxBlockFrames, 256)
        XCTAssertTrue(eventually(within: 60) { session.taps.first!.seconds >= 0.3 })

        let other = try JackClient(name: "resizer", server: server.name)
        XCTAssertEqual(jack_set_buffer_size(try other.handle(), 128), 0)
        XCTAssertTrue(eventually(within: 60) {
            try? session.poll()
            return session.plan.format.maxBlockFrames == 128
        }, "the plan was not rebuilt at 128 frames")
        XCTAssertEqual(session.format.maxBlockFrames, 128)
        let secondsAtChange = session.taps.first!.seconds
        XCTAssertTrue(eventually(within: 60) { session.taps.first!.seconds >= secondsAtChange + 0.3 })
        try session.finish()

        let recorded = try Audio.read(tapFile).channels[0]
        let expected = level * Float(Decibels.toLinear(-6))
        let tail = recorded.suffix(4_800)
        XCTAssertEqual(tail.count, 4_800)
        XCTAssertTrue(tail.allSatisfy { $0 == expected }, "after the change the sound goes on at the same level")
        XCTAssertEqual(recorded.first, expected)
    }
}

func temporaryFolder(_ name: String = #function) throws -> URL {
    try TestFolders.make(name, prefix: "fxhost-jackio")
}
