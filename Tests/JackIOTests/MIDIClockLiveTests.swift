import CCoreShim
import Foundation
import HostCore
import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// A MIDI clock followed on `clock_in` and the transport's clock sent on
/// `clock_out`, on one LiveSession and a private dummy server, with JACK
/// clients no one here wrote (python's JACK-Client): a clock at 150 bpm
/// (pulses 800 frames apart at 48 kHz: 48000 × 60 / (24 × 800)) comes back
/// out as pulses exactly 800 frames apart, its start as a start. This target links
/// RealtimeSanitizer and halts on a violation, so this is also a sanitizer
/// run of both clock paths of the callback.
final class MIDIClockLiveTests: XCTestCase {
    func testAClockFollowedIsSentOnAtItsTempo() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the sanitizer check needs it linked")
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let receiver = try MIDIReceiver(server: server.name)
        defer { receiver.stop() }
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: [])
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let main = try graph.addOutput("main", channels: 1, ports: [])
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: main)
        var options = LiveSession.Options(server: server)
        options.tempo = Tempo(beatsPerMinute: 90)
        options.clock = MIDIClockPorts(inputs: [], outputs: [MIDIReceiver.port])
        let session = try LiveSession(graph: graph, options: options)
        defer { session.client.close() }
        try session.start()
        try session.connectPorts()
        XCTAssertEqual(session.transportStatus.source, "fxhost")
        func pulses() -> [Int] { receiver.messages.filter { $0.bytes == [0xF8] }.map(\.frame) }
        XCTAssertTrue(eventually(within: 30) { pulses().count >= 10 }, receiver.output)

        // Four beats of clock from the start, then a song position (beat 2) and stop.
        let clock = [(frame: 0, message: MIDISender.Message.raw([0xFA]))]
            + (0..<96).map { (frame: $0 * 800, message: MIDISender.Message.raw([0xF8])) }
        try TimedMIDISender.send(clock, server: server.name, to: "\(session.client.name):clock_in", triesWhenLate: 5)
        XCTAssertEqual(session.transportStatus.source, "clock")
        // The clock's start moved the rolling transport back to the top: sent on as a start.
        XCTAssertTrue(eventually(within: 30) { receiver.messages.contains { $0.bytes == [0xFA] } }, receiver.output)
        XCTAssertEqual(session.transportStatus.beatsPerMinute, 150)
        XCTAssertThrowsError(try session.setTempo(100)) { error in
            XCTAssertEqual("\(error)", "the MIDI clock followed sets the tempo (150 bpm now); change it there")
        }
        // Fifty pulses sent on; an xrun leaves the transport, which counts the frames it plays, a
        // cycle behind (one longer interval): a stretch that fails with xruns is taken again.
        func intervals(_ frames: [Int]) -> [Int] { zip(frames.dropFirst(), frames).map { $0 - $1 } }
        let (held, note) = retakingOnXruns({ _ in
            let xruns = session.status().xruns, atEnd = pulses().count
            XCTAssertTrue(eventually(within: 30) { pulses().count >= atEnd + 50 }, receiver.output)
            return (Array(pulses().suffix(49)), session.status().xruns - xruns)
        }, passes: { intervals($0) == Array(repeating: 800, count: 48) })
        XCTAssertEqual(intervals(held), Array(repeating: 800, count: 48), "the clock's 150 bpm held after its pulses ended" + note)

        try TimedMIDISender.send([(0, .raw([0xF2, 8, 0])), (0, .raw([0xFC]))], server: server.name,
                                 to: "\(session.client.name):clock_in")
        XCTAssertTrue(eventually(within: 30) { receiver.messages.contains { $0.bytes == [0xFC] } }, receiver.output)
        XCTAssertFalse(session.transportStatus.rolling)
        try session.finish()
    }

    /// Under a clock, `transport start` after the clock's stop rolls again,
    /// though the last request was a start too (the patch's): each request
    /// counts, not only a changed one. Stopped and rolling are what the
    /// callback reports of the position it hands plugins.
    func testTransportStartAfterTheClocksStopRolls() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: [])
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let main = try graph.addOutput("main", channels: 1, ports: [])
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: main)
        var options = LiveSession.Options(server: server)
        options.clock = MIDIClockPorts(inputs: [], outputs: nil)
        let session = try LiveSession(graph: graph, options: options)
        defer { session.client.close() }
        try session.start()
        try session.connectPorts()
        let clock = [(frame: 0, message: MIDISender.Message.raw([0xFA]))]
            + (0..<48).map { (frame: $0 * 800, message: MIDISender.Message.raw([0xF8])) }
            + [(frame: 48 * 800, message: MIDISender.Message.raw([0xFC]))]
        try TimedMIDISender.send(clock, server: server.name, to: "\(session.client.name):clock_in", triesWhenLate: 5)
        XCTAssertTrue(eventually(within: 30) { !session.transportStatus.rolling }, "the clock's stop")
        XCTAssertEqual(session.transportStatus.source, "clock")
        session.setTransportRolling(true)
        XCTAssertTrue(eventually(within: 30) { session.transportStatus.rolling }, "transport start after the clock's stop")
        session.setTransportRolling(false)
        XCTAssertTrue(eventually(within: 30) { !session.transportStatus.rolling }, "and stop")
        try session.finish()
    }

    /// A lone stop (0xFC) on `clock_in`, no pulse: the transport follows it
    /// (stopped, source `clock`), but no clock gives a tempo, so `tempo` still sets it.
    func testALoneStopLeavesTheTempoCommandWorking() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: [])
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let main = try graph.addOutput("main", channels: 1, ports: [])
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: main)
        var options = LiveSession.Options(server: server)
        options.tempo = Tempo(beatsPerMinute: 90)
        options.clock = MIDIClockPorts(inputs: [], outputs: nil)
        let session = try LiveSession(graph: graph, options: options)
        defer { session.client.close() }
        try session.start()
        try session.connectPorts()
        try TimedMIDISender.send([(0, .raw([0xFC]))], server: server.name, to: "\(session.client.name):clock_in")
        XCTAssertTrue(eventually(within: 30) { !session.transportStatus.rolling }, "the clock's stop")
        XCTAssertEqual(session.transportStatus.source, "clock")
        XCTAssertNoThrow(try session.setTempo(100))
        XCTAssertTrue(eventually(within: 30) { session.transportStatus.beatsPerMinute == 100 }, "\(session.transportStatus)")
        try session.finish()
    }
}
