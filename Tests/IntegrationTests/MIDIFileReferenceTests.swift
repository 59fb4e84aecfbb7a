import Foundation
import HostCore
import XCTest

/// Standard MIDI Files written by PyPI's `mido` (scripts/install-deps.sh),
/// read by fxhost: the same channel messages at the times `mido` itself
/// computes, tempo changes included.
final class MIDIFileReferenceTests: XCTestCase {
    /// A format 1 file: tempo 120 bpm, then 60 bpm from the second beat's
    /// end (tick 960), in the tempo track; notes, a controller and a
    /// program change on two channels in two more tracks. And a format 0
    /// file of the same messages.
    func testFilesMidoWritesReadAsMidoPlaysThem() throws {
        let folder = try Tools.temporaryFolder()
        for format in [1, 0] {
            let path = folder.appendingPathComponent("notes-\(format).mid").path
            let written = try Tools.run("python3", ["-c", Self.writer, path, "\(format)"])
            XCTAssertEqual(written.status, 0, "mido (scripts/install-deps.sh) must be installed: \(written.stderr)")
            // What mido plays: each channel message's bytes and its time in seconds.
            let expected = written.stdout.split(separator: "\n").map { line -> (Double, [UInt8]) in
                let fields = line.split(separator: " ")
                return (Double(fields[0])!, fields.dropFirst().map { UInt8($0)! })
            }
            XCTAssertEqual(expected.count, 9, written.stdout)

            let file = try StandardMIDIFile(path: path)
            XCTAssertEqual(file.format, format)
            XCTAssertEqual(file.events.map(\.bytes), expected.map(\.1), "format \(format)")
            for (event, (seconds, _)) in zip(file.events, expected) {
                XCTAssertEqual(event.seconds, seconds, accuracy: 1e-9, "format \(format): \(event.bytes)")
            }
            // Arithmetic too: tick 960 at 120 bpm and 480 ticks a beat is 1 s, frame 48000
            // at 48 kHz; a beat later at 60 bpm, 2 s.
            let noteOnOneSecond = file.events.first { $0.bytes == [0x90, 64, 100] }
            XCTAssertEqual(noteOnOneSecond.map { StandardMIDIFile.frame(of: $0.seconds, sampleRate: 48_000) }, 48_000)
            XCTAssertEqual(file.events.first { $0.bytes == [0xB1, 7, 90] }?.seconds, 2)
            XCTAssertEqual(file.seconds, 3, "the file ends a beat at 60 bpm after that")
        }
    }

    /// Writes the file named by argv[1] in the format argv[2] with mido, then
    /// prints what mido plays from it: seconds, then the message's bytes.
    private static let writer = """
        import sys, mido
        path, file_format = sys.argv[1], int(sys.argv[2])
        tempo = mido.MidiTrack([mido.MetaMessage("set_tempo", tempo=500000, time=0),
                                mido.MetaMessage("set_tempo", tempo=1000000, time=960)])
        keys = mido.MidiTrack([mido.Message("note_on", note=60, velocity=100, time=0),
                               mido.Message("note_off", note=60, velocity=0, time=480),
                               mido.Message("note_on", note=64, velocity=100, time=480),
                               mido.Message("note_on", note=64, velocity=0, time=240),
                               mido.Message("program_change", program=5, time=0)])
        bass = mido.MidiTrack([mido.Message("note_on", channel=1, note=36, velocity=90, time=240),
                               mido.Message("note_off", channel=1, note=36, velocity=64, time=240),
                               mido.Message("control_change", channel=1, control=7, value=90, time=960),
                               mido.Message("pitchwheel", channel=1, pitch=1000, time=240),
                               mido.MetaMessage("end_of_track", time=240)])
        midi = mido.MidiFile(type=file_format, ticks_per_beat=480)
        if file_format == 1:
            midi.tracks += [tempo, keys, bass]
        else:
            midi.tracks.append(mido.merge_tracks([tempo, keys, bass]))
        midi.save(path)
        now = 0.0
        for message in mido.MidiFile(path):
            now += message.time
            if not message.is_meta:
                print(repr(now), " ".join(str(b) for b in message.bytes()))
        """
}
