import CCoreShim
import Foundation
import HostCore
import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// MIDI as a signal in a live graph, from a sequencer no one here wrote:
/// JACK's own `jack_midiseq` example client (jackd2) loops notes at fixed
/// frames of its loop into the session's `midi-input` port. eg-sampler
/// plays its click from the frame of each note-on, so the recorded onsets
/// must be exactly as far apart as the sequence's notes, whatever block
/// they fall in. The process links RealtimeSanitizer with halt_on_error:
/// MIDI in from JACK, into an atom port, out of x42's MIDI passthrough and
/// out to a JACK MIDI output, all through the realtime callback, must not
/// allocate or lock (reaching the end of the test says so).
final class LiveMIDIGraphTests: XCTestCase {
    func testSamplerOnsetsFollowJackMidiseqFrameForFrame() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the sanitizer check needs it linked")
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let loopback = try LoopbackClient(server: server.name, constant: 0, channels: 1, capacity: 48_000 * 60)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let keys = try graph.addMIDIInput("keys")
        let through = try graph.addUnit("through", provider.makeUnit("http://gareus.org/oss/lv2/midifilter#passthru"))
        let sampler = try graph.addUnit("sampler", provider.makeUnit("http://lv2plug.in/plugins/eg-sampler"))
        let echo = try graph.addMIDIOutput("echo")
        let main = try graph.addOutput("main", channels: 1, ports: ["loopback:record_1"])
        try graph.connect(keys, to: through)
        try graph.connect(through, to: sampler)
        try graph.connect(through, to: echo)
        try graph.connect(sampler, to: main)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        try session.connectPorts()
        let keysPort = try XCTUnwrap(session.midiPortName(of: "keys"))
        XCTAssertEqual(session.midiPortName(of: "echo"), "\(session.client.name):echo")

        // A loop of 24000 frames: a note at 0 and one at 9100, neither on a
        // block boundary of the other (9100 is not a multiple of 256).
        let sequencer = Process()
        sequencer.executableURL = URL(fileURLWithPath: "/usr/bin/jack_midiseq")
        sequencer.arguments = ["midiseq", "24000", "0", "60", "2000", "9100", "62", "2000"]
        sequencer.environment = ["JACK_DEFAULT_SERVER": server.name, "JACK_NO_START_SERVER": "1"]
        sequencer.standardOutput = FileHandle.nullDevice
        sequencer.standardError = FileHandle.nullDevice
        try sequencer.run()
        defer {
            sequencer.terminate()
            sequencer.waitUntilExit()
        }
        XCTAssertTrue(eventually(within: 60) {
            (try? session.client.connectMIDI("midiseq:out", to: keysPort)) != nil
        }, "jack_midiseq's port appears")

        // Six onsets after the first are plenty; wait for them.
        let click = try Audio.read("/usr/lib/lv2/eg-sampler.lv2/click.wav").channels[0]
        var onsets: [Int] = []
        XCTAssertTrue(eventually(within: 120) {
            onsets = Self.onsets(in: loopback.recording()[0])
            return onsets.count >= 7
        }, "onsets so far: \(onsets)")
        let recorded = loopback.recording()[0]
        // On a shared machine a dummy server's client may miss a cycle now
        // and then (an xrun), which shifts the recording, or the
        // sequencer's loop, by whole cycles of 256 frames. So: within its
        // cycle, every note must start at the sequence's frame: each
        // spacing is 9100 or 14900 frames plus whole cycles (a host that
        // put events at the start of their cycle would give multiples of
        // 256), and most are exactly that.
        let spacing = zip(onsets.dropFirst(), onsets).map { $0 - $1 }
        for gap in spacing {
            XCTAssertTrue([9_100, 14_900].contains { expected in (gap - expected) % 256 == 0 },
                          "a gap of \(gap) frames: not 9100 or 14900 plus whole cycles (\(spacing))")
        }
        XCTAssertGreaterThan(spacing.filter { $0 == 9_100 || $0 == 14_900 }.count, spacing.count / 2, "\(spacing)")
        // Each onset plays the click from its first frame.
        for onset in onsets where onset + click.count <= recorded.count {
            XCTAssertEqual(Array(recorded[onset..<(onset + click.count - 1)]), Array(click.dropLast()), "onset \(onset)")
        }
        XCTAssertEqual(session.plan.droppedMIDIEvents, 0)
    }

    /// A `midi-file` node plays on the live timeline: its notes (0.25 s
    /// and 0.75 s) start exactly 24000 frames apart in what the session
    /// rendered (a tap records every rendered frame), and the first at
    /// 12000 frames after the session's first frame.
    func testAMIDIFilePlaysLiveAtItsFrames() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try temporaryFolder()
        let notes = folder.appendingPathComponent("notes.mid").path
        // 24000 ticks a beat at 120 bpm: a tick is a frame at 48 kHz.
        try Data(MIDIFileBytes.format0(division: 24_000, events: [
            (12_000, [0x90, 60, 100]), (24_000, [0x90, 62, 100]), (48_000, [0xFF, 0x2F, 0]),
        ])).write(to: URL(fileURLWithPath: notes))
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let song = try graph.addMIDIFile("song", file: MIDIFileSource(path: notes))
        let sampler = try graph.addUnit("sampler", provider.makeUnit("http://lv2plug.in/plugins/eg-sampler"))
        let main = try graph.addOutput("main", channels: 1)
        try graph.connect(song, to: sampler)
        try graph.connect(sampler, to: main)
        let take = folder.appendingPathComponent("take.wav").path
        try graph.installTap(on: sampler, file: take)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        XCTAssertTrue(eventually(within: 60) { session.taps.contains { $0.seconds >= 1.2 } })
        _ = try session.stopTaps(node: "sampler")
        let recorded = try Audio.read(take).channels[0]
        let onsets = Self.onsets(in: recorded)
        XCTAssertEqual(onsets.count, 2, "\(onsets)")
        XCTAssertEqual(zip(onsets.dropFirst(), onsets).map { $0 - $1 }, [24_000])
        XCTAssertEqual(onsets.first, 12_000, "the tap holds every frame from the first")
    }

    /// Frames where sound starts after at least 1000 frames of silence
    /// (a recording's NaN tail, not yet written, ends the search).
    private static func onsets(in samples: [Float]) -> [Int] {
        var result: [Int] = [], quiet = 1_000
        for (frame, sample) in samples.enumerated() {
            if sample.isNaN { break }
            if sample != 0 {
                if quiet >= 1_000 { result.append(frame) }
                quiet = 0
            } else {
                quiet += 1
            }
        }
        return result
    }
}
