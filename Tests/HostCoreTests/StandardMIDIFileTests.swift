import Foundation
import HostCore
import TestSupport
import XCTest

/// The MIDI file reader on bytes laid out by hand from the specification
/// (Standard MIDI Files 1.0): running status, tempo arithmetic, and the
/// sentences for files it cannot read.
final class StandardMIDIFileTests: XCTestCase {
    private func header(format: UInt8 = 0, tracks: UInt8 = 1, division: [UInt8] = [0x01, 0xE0]) -> [UInt8] {
        Array("MThd".utf8) + [0, 0, 0, 6, 0, format, 0, tracks] + division
    }

    private func track(_ body: [UInt8]) -> [UInt8] {
        let count = body.count
        return Array("MTrk".utf8) + [UInt8(count >> 24 & 0xFF), UInt8(count >> 16 & 0xFF), UInt8(count >> 8 & 0xFF),
                                     UInt8(count & 0xFF)] + body
    }

    private let endOfTrack: [UInt8] = [0x00, 0xFF, 0x2F, 0x00]

    /// 480 ticks a beat at the default 120 bpm: a tick is 1/960 s. Running
    /// status carries the note-on status over to the next two events; a
    /// two-byte delta (0x83 0x60 = 480) is a half second.
    func testRunningStatusAndVariableLengthTimes() throws {
        let body: [UInt8] = [0x00, 0x90, 60, 100,  // note on at 0
                             0x83, 0x60, 60, 0,   // running status: note 60 velocity 0 at 480
                             0x81, 0x70, 62, 90,  // running status, delta 240: at 720
                             0x00, 0xC3, 7,       // program change: one data byte
                             0x00, 0x05]          // running status after a program change: one data byte
        let file = try StandardMIDIFile(bytes: header() + track(body + endOfTrack), path: "hand.mid")
        XCTAssertEqual(file.events.map(\.bytes), [[0x90, 60, 100], [0x90, 60, 0], [0x90, 62, 90], [0xC3, 7], [0xC3, 5]])
        XCTAssertEqual(file.events.map(\.seconds), [0, 0.5, 0.75, 0.75, 0.75])
        XCTAssertEqual(file.seconds, 0.75)
    }

    /// A tempo of 0x0F4240 µs a beat (60 bpm) from tick 480: tick 960 is
    /// 0.5 s + 1 s. Sysex and other meta events are read past.
    func testTempoChangesAndSkippedEvents() throws {
        let body: [UInt8] = [0x00, 0xF0, 0x03, 0x7E, 0x7F, 0xF7,          // sysex, skipped
                             0x00, 0xFF, 0x03, 0x04] + Array("bass".utf8)  // track name, skipped
            + [0x83, 0x60, 0xFF, 0x51, 0x03, 0x0F, 0x42, 0x40,               // 60 bpm at tick 480
               0x83, 0x60, 0xB0, 7, 100]                                     // controller at tick 960
        let file = try StandardMIDIFile(bytes: header() + track(body + endOfTrack), path: "tempo.mid")
        XCTAssertEqual(file.events.map(\.bytes), [[0xB0, 7, 100]])
        XCTAssertEqual(file.events.first?.seconds, 1.5)
        XCTAssertEqual(StandardMIDIFile.frame(of: 1.5, sampleRate: 48_000), 72_000)
    }

    /// Found while fuzzing: the slowest tempo (0xFFFFFF µs a beat), one tick
    /// a beat and 43,000 of the longest deltas put a note 7e14 s in, whose
    /// frame at 48 kHz overflowed Int and trapped the player. A file lasting
    /// over 24 hours (here a single delta of 10,000 such ticks, 46 hours) is
    /// refused with a sentence.
    func testAFileLongerThanADayIsRefusedNotTrapped() {
        let slowest: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0xFF, 0xFF, 0xFF]
        let longDeltas = Array(repeating: [0xFF, 0xFF, 0xFF, 0x7F, 0xF0, 0x00] as [UInt8], count: 43_000).flatMap { $0 }
        let note: [UInt8] = [0x00, 0x90, 60, 100]
        let dayLong: [UInt8] = [0xCE, 0x10, 0xF0, 0x00]  // delta 10,000
        for (body, name) in [(slowest + longDeltas + note, "long.mid"), (slowest + dayLong + note, "day.mid")] {
            XCTAssertThrowsError(try StandardMIDIFile(bytes: header(division: [0, 1]) + track(body + endOfTrack), path: name)) { error in
                XCTAssertTrue("\(error)".hasPrefix("\(name): lasts "), "\(error)")
                XCTAssertTrue("\(error)".hasSuffix("; fxhost plays MIDI files up to 86400 s (24 hours) long"), "\(error)")
            }
        }
        // Just under 24 hours still plays: 5,149 ticks of 16.777215 s is 86,386 s.
        let justUnder: [UInt8] = [0x00, 0xFF, 0x51, 0x03, 0xFF, 0xFF, 0xFF, 0xA8, 0x1D, 0x90, 60, 100]
        XCTAssertNoThrow(try StandardMIDIFile(bytes: header(division: [0, 1]) + track(justUnder + endOfTrack), path: "ok.mid"))
    }

    func testFilesItCannotReadAreRefusedWithWhereAndWhy() {
        func sentence(_ bytes: [UInt8]) -> String? {
            do {
                _ = try StandardMIDIFile(bytes: bytes, path: "x.mid")
                return nil
            } catch {
                return error.description
            }
        }
        XCTAssertEqual(sentence(Array("RIFF....WAVEfmt ".utf8)),
                       "x.mid: is not a Standard MIDI File (it does not begin with `MThd`)")
        XCTAssertEqual(sentence(header(format: 2) + track(endOfTrack)),
                       "x.mid: byte 8: is a format 2 MIDI file; fxhost plays formats 0 and 1")
        XCTAssertEqual(sentence(header(division: [0xE7, 0x28]) + track(endOfTrack)),
                       "x.mid: byte 12: counts time in SMPTE frames; fxhost plays files that count ticks per quarter note")
        XCTAssertEqual(sentence(header(tracks: 2) + track(endOfTrack)),
                       "x.mid: byte 26: the header announces 2 tracks, but the file ends after 1")
        XCTAssertEqual(sentence(header() + track([0x00, 0x90, 60])),
                       "x.mid: byte 25: the track ends inside an event")
        XCTAssertEqual(sentence(header() + track([0x00, 0x40, 60])),
                       "x.mid: byte 23: track 1 has a data byte where an event should begin")
        XCTAssertEqual(sentence(header() + track([0x00, 0x90, 60, 100])),
                       "x.mid: byte 26: track 1 ends without an End of Track event")
    }

    func testAFIFOIsRefusedWithoutWaitingForItsOtherEnd() throws {
        let folder = try TestFolders.make(name, prefix: "fxhost-midi-file-tests")
        defer { try? FileManager.default.removeItem(at: folder) }
        let fifo = folder.appendingPathComponent("fifo.mid").path
        try FIFOs.make(fifo)
        let sentence = FIFOs.promptly(fifo) { () -> String? in
            do {
                _ = try StandardMIDIFile(path: fifo)
                return nil
            } catch {
                return "\(error)"
            }
        }
        XCTAssertEqual(sentence, "\(fifo): is a FIFO, not a regular file; fxhost reads and writes only regular files")
        XCTAssertEqual(FIFOs.promptly(fifo) { StandardMIDIFile.isStandardMIDIFile(path: fifo) }, false)
    }
}
