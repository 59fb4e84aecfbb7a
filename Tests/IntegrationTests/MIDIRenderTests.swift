import Foundation
import HostCore
import TestSupport
import XCTest

/// MIDI as a signal in an offline render, judged by where sound starts.
/// The notes come from a Standard MIDI File written by PyPI's `mido`
/// (scripts/install-deps.sh), and the frames they must start at are
/// `mido`'s own times × 48000. eg-sampler (its default state loads its
/// `click.wav`) plays that file from its first frame at each note-on, so
/// each note must put the click's samples into the render starting exactly
/// at its frame, and nothing anywhere else.
final class MIDIRenderTests: XCTestCase {
    private static let sampler = "http://lv2plug.in/plugins/eg-sampler"
    private static let click = "/usr/lib/lv2/eg-sampler.lv2/click.wav"

    /// Notes at 0.25 s and 1 s at 120 bpm, then (tempo 100 bpm from 1 s)
    /// one 600 ticks later: 1.75 s. Prints mido's time of each note-on.
    private static let writer = """
        import sys, mido
        track = mido.MidiTrack([
            mido.MetaMessage("set_tempo", tempo=500000, time=0),
            mido.Message("note_on", note=60, velocity=100, time=240),
            mido.Message("note_off", note=60, velocity=0, time=240),
            mido.Message("note_on", note=62, velocity=100, time=480),
            mido.MetaMessage("set_tempo", tempo=600000, time=0),
            mido.Message("note_off", note=62, velocity=0, time=100),
            mido.Message("note_on", note=64, velocity=100, time=500),
            mido.Message("note_off", note=64, velocity=0, time=100)])
        midi = mido.MidiFile(type=0, ticks_per_beat=480)
        midi.tracks.append(track)
        midi.save(sys.argv[1])
        now = 0.0
        for message in mido.MidiFile(sys.argv[1]):
            now += message.time
            if message.type == "note_on":
                print(repr(now))
        """

    /// Writes `notes.mid` into `folder`; returns the frames at 48 kHz its notes start at.
    private func writeNotes(in folder: URL) throws -> [Int] {
        let written = try Tools.run("python3", ["-c", Self.writer, folder.appendingPathComponent("notes.mid").path])
        XCTAssertEqual(written.status, 0, "mido (scripts/install-deps.sh) must be installed: \(written.stderr)")
        let frames = written.stdout.split(separator: "\n").map { Int((Double($0)! * 48_000).rounded()) }
        XCTAssertEqual(frames, [12_000, 48_000, 84_000], "mido's times: 0.25 s, 1 s, 1.75 s")
        return frames
    }

    private func writePatch(_ text: String, in folder: URL) throws -> String {
        let path = folder.appendingPathComponent("patch.yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The render holds the click from each onset and silence everywhere
    /// else. eg-sampler stops one frame before the file's end (its own
    /// loop), the same at every note, so the click's last frame is not asked for.
    private func assertClicks(at onsets: [Int], in audio: Audio, file: StaticString = #filePath, line: UInt = #line) throws {
        let click = try Audio.read(Self.click).channels[0]
        let played = click.count - 1
        let output = audio.channels[0]
        var expected = [Float](repeating: 0, count: output.count)
        for onset in onsets { for frame in 0..<played { expected[onset + frame] = click[frame] } }
        let heard = (0..<output.count).filter { output[$0] != 0 }
        XCTAssertEqual(heard.first, onsets.first, "sound starts at the first note's frame", file: file, line: line)
        for frame in 0..<output.count where output[frame] != expected[frame] {
            let near = onsets.last { $0 <= frame } ?? 0
            XCTFail("frame \(frame) (\(frame - near) after the onset at \(near)) is \(output[frame]), expected \(expected[frame])",
                    file: file, line: line)
            return
        }
    }

    func testSamplerPlaysAtTheExactFramesOfAMIDIFile() throws {
        let folder = try Tools.temporaryFolder()
        let onsets = try writeNotes(in: folder)
        let patch = try writePatch("""
            fxhost: 1
            nodes:
              keys: { midi-file: notes.mid }
              sampler: { plugin: "\(Self.sampler)" }
              out: { output: 1 }
            chain: [keys, sampler, out]
            """, in: folder)
        let output = folder.appendingPathComponent("out.wav").path
        // Blocks of 256 frames: no note falls on a block boundary (12000, 48000 and 84000 are not multiples of 256).
        try Tools.fxhost(["render", patch, "-o", output, "--block", "256", "--tail", "0s"])
        let audio = try Audio.read(output)
        // The render lasts as long as the MIDI file: 1.875 s (its end of track).
        XCTAssertEqual(audio.frames, 90_000)
        try assertClicks(at: onsets, in: audio)
    }

    /// One patch, live and offline: a `midi-input` node plays the file
    /// given with `-i NODE=FILE`, and is silent without one.
    func testMIDIInputFedFromTheCommandLine() throws {
        let folder = try Tools.temporaryFolder()
        let onsets = try writeNotes(in: folder)
        let patch = try writePatch("""
            fxhost: 1
            nodes:
              keys: { midi-input: ["system:midi_capture_1"] }
              sampler: { plugin: "\(Self.sampler)" }
              out: { output: 1 }
            chain: [keys, sampler, out]
            """, in: folder)
        let output = folder.appendingPathComponent("out.wav").path
        try Tools.fxhost(["render", patch, "-i", "keys=" + folder.appendingPathComponent("notes.mid").path,
                          "-o", output, "--block", "256", "--tail", "0s"])
        try assertClicks(at: onsets, in: try Audio.read(output))

        let silent = folder.appendingPathComponent("silent.wav").path
        try Tools.fxhost(["render", patch, "-o", silent])
        let nothing = try Audio.read(silent)
        XCTAssertGreaterThan(nothing.frames, 0)
        XCTAssertTrue(nothing.channels[0].allSatisfy { $0 == 0 })
    }

    /// A plugin's MIDI output feeds another plugin's MIDI input: x42's
    /// MIDI passthrough between the file and the sampler keeps every
    /// note at its frame.
    func testMIDIPassesFromOnePluginToAnother() throws {
        let folder = try Tools.temporaryFolder()
        let onsets = try writeNotes(in: folder)
        let patch = try writePatch("""
            fxhost: 1
            nodes:
              keys: { midi-file: notes.mid }
              through: { plugin: "http://gareus.org/oss/lv2/midifilter#passthru" }
              sampler: { plugin: "\(Self.sampler)" }
              out: { output: 1 }
            chain: [keys, through, sampler, out]
            """, in: folder)
        let check = try Tools.fxhost(["check", patch])
        XCTAssertTrue(check.stdout.contains("MIDI control ← through:midiout"), check.stdout)
        let output = folder.appendingPathComponent("out.wav").path
        try Tools.fxhost(["render", patch, "-o", output, "--block", "256", "--tail", "0s"])
        try assertClicks(at: onsets, in: try Audio.read(output))
    }

    /// x42's event blocker set to block notes stops them; bypassed, it
    /// passes its MIDI input on, so the notes play again at their frames.
    func testABypassedMIDIFilterPassesItsInputOn() throws {
        let folder = try Tools.temporaryFolder()
        let onsets = try writeNotes(in: folder)
        for bypass in [false, true] {
            let patch = try writePatch("""
                fxhost: 1
                nodes:
                  keys: { midi-file: notes.mid }
                  block: { plugin: "http://gareus.org/oss/lv2/midifilter#eventblocker", params: { blknote: 1 }, bypass: \(bypass) }
                  sampler: { plugin: "\(Self.sampler)" }
                  out: { output: 1 }
                chain: [keys, block, sampler, out]
                """, in: folder)
            let output = folder.appendingPathComponent("out.wav").path
            try Tools.fxhost(["render", patch, "-o", output, "--block", "256", "--tail", "0s"])
            let audio = try Audio.read(output)
            if bypass {
                try assertClicks(at: onsets, in: audio)
            } else {
                XCTAssertTrue(audio.channels[0].allSatisfy { $0 == 0 }, "notes blocked")
            }
        }
    }

    /// Two MIDI files into one input merge in time order: the second file,
    /// started at 0.5 s, adds its notes 24000 frames after each of the
    /// first's. It also plays alone into a second sampler, tapped: two
    /// branches, which two threads render to the same bits as one.
    func testTwoMIDIFeedsMergeAndThreadsChangeNothing() throws {
        let folder = try Tools.temporaryFolder()
        let onsets = try writeNotes(in: folder)
        let patch = try writePatch("""
            fxhost: 1
            nodes:
              keys: { midi-file: notes.mid }
              later: { midi-file: notes.mid, start: 500ms }
              sampler: { plugin: "\(Self.sampler)" }
              other: { plugin: "\(Self.sampler)" }
              out: { output: 1 }
            connect:
              - keys -> sampler
              - later -> sampler
              - later -> other
              - sampler -> out
            taps:
              - { at: other, file: other.wav }
            """, in: folder)
        var renders: [[Audio]] = []
        for threads in ["1", "2"] {
            let output = folder.appendingPathComponent("out-\(threads).wav").path
            try Tools.fxhost(["render", patch, "-o", output, "--block", "256", "--tail", "0s", "--threads", threads])
            renders.append([try Audio.read(output), try Audio.read(folder.appendingPathComponent("other.wav").path)])
        }
        XCTAssertEqual(renders[0][0].frames, 90_000 + 24_000, "the later file ends 0.5 s after the first")
        try assertClicks(at: (onsets + onsets.map { $0 + 24_000 }).sorted(), in: renders[0][0])
        try assertClicks(at: onsets.map { $0 + 24_000 }, in: renders[0][1])
        XCTAssertIdentical(renders[1][0], renders[0][0])
        XCTAssertIdentical(renders[1][1], renders[0][1])
    }

    /// MIDI-only instruments render: mda JX10 is silent without notes and
    /// sounds with them, from the first note's frame.
    func testInstrumentsRender() throws {
        let folder = try Tools.temporaryFolder()
        _ = try writeNotes(in: folder)
        for plugin in ["http://drobilla.net/plugins/mda/JX10", "http://drobilla.net/plugins/mda/DX10"] {
            let patch = try writePatch("""
                fxhost: 1
                nodes:
                  keys: { midi-input: [] }
                  synth: { plugin: "\(plugin)" }
                  out: { output: 2 }
                chain: [keys, synth, out]
                """, in: folder)
            let output = folder.appendingPathComponent("out.wav").path
            try Tools.fxhost(["render", patch, "-i", "keys=" + folder.appendingPathComponent("notes.mid").path,
                              "-o", output, "--block", "256"])
            let left = try Audio.read(output).channels[0]
            let first = left.firstIndex { abs($0) > 1e-6 }
            XCTAssertNotNil(first, "\(plugin) made no sound")
            XCTAssertGreaterThanOrEqual(first ?? 0, 12_000, "\(plugin): nothing before the first note")
            XCTAssertLessThan(first ?? .max, 12_000 + 64, "\(plugin): sound within a few frames of the note")
            XCTAssertGreaterThan(left.map(abs).max() ?? 0, 0.01, plugin)
        }
    }

    func testMIDIWiringErrorsNameTheirPlace() throws {
        let folder = try Tools.temporaryFolder()
        _ = try writeNotes(in: folder)
        let patch = try writePatch("""
            fxhost: 1
            nodes:
              keys: { midi-file: notes.mid }
              amp: { plugin: "http://lv2plug.in/plugins/eg-amp" }
              out: { output: 1 }
            chain: [keys, amp, out]
            """, in: folder)
        let intoAudio = try Tools.run(Tools.fxhost, ["check", patch])
        XCTAssertNotEqual(intoAudio.status, 0)
        XCTAssertTrue(intoAudio.stderr.contains("patch.yaml:6:15: `keys` sends MIDI, but `amp` (Simple Amplifier) has no MIDI input"),
                      intoAudio.stderr)

        let missing = try writePatch("""
            fxhost: 1
            nodes:
              keys: { midi-file: missing.mid }
              sampler: { plugin: "\(Self.sampler)" }
              out: { output: 1 }
            chain: [keys, sampler, out]
            """, in: folder)
        let noFile = try Tools.run(Tools.fxhost, ["check", missing])
        XCTAssertNotEqual(noFile.status, 0)
        XCTAssertTrue(noFile.stderr.contains("patch.yaml:3:22: node `keys`:"), noFile.stderr)
        XCTAssertTrue(noFile.stderr.contains("missing.mid"), noFile.stderr)

        let tapped = try writePatch("""
            fxhost: 1
            nodes:
              keys: { midi-file: notes.mid }
              sampler: { plugin: "\(Self.sampler)" }
              out: { output: 1 }
            chain: [keys, sampler, out]
            taps:
              - { at: keys, file: keys.wav }
            """, in: folder)
        let tapError = try Tools.run(Tools.fxhost, ["check", tapped])
        XCTAssertNotEqual(tapError.status, 0)
        XCTAssertTrue(tapError.stderr.contains("patch.yaml:8:5: `keys` carries MIDI, and a tap records audio"), tapError.stderr)
    }
}
