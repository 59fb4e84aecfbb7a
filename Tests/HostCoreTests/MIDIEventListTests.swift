@testable import HostCore
import TestSupport
import XCTest

/// A block's MIDI events and a MIDI file's events on the timeline, against
/// arithmetic: an event at t seconds is at frame round(t × rate) of the
/// timeline, whatever the block size, and a list keeps time order.
final class MIDIEventListTests: XCTestCase {
    private func note(_ frame: UInt32, _ key: UInt8) -> MIDIEvent {
        MIDIEvent(frame: frame, size: 3, status: 0x90, data1: key, data2: 100)
    }

    func testEventsStayInTimeOrderAndTiesKeepTheirArrival() {
        let storage = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 8)
        defer { storage.deallocate() }
        var list = MIDIEventList(events: storage, capacity: 8)
        for event in [note(50, 1), note(10, 2), note(50, 3), note(0, 4), note(10, 5)] { list.insert(event) }
        XCTAssertEqual((0..<list.count).map { list.events[$0].data1 }, [4, 2, 5, 1, 3])
        XCTAssertEqual((0..<list.count).map { list.events[$0].frame }, [0, 10, 10, 50, 50])
    }

    func testMergingTwoStreamsAndDroppingWhatDoesNotFit() {
        let storage = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 8)
        defer { storage.deallocate() }
        var first = MIDIEventList(events: storage, capacity: 4)
        var second = MIDIEventList(events: storage + 4, capacity: 4)
        for event in [note(0, 1), note(20, 2)] { first.insert(event) }
        for event in [note(10, 3), note(20, 4), note(30, 5)] { second.insert(event) }
        withUnsafePointer(to: &second) { first.merge($0) }
        XCTAssertEqual((0..<first.count).map { first.events[$0].data1 }, [1, 3, 2, 4], "full at 4")
        XCTAssertEqual(first.dropped, 1)
        first.removeAll()
        XCTAssertEqual(first.count, 0)
    }

    /// Notes at 0.25 s, 1 s and 1.000021 s (one frame later at 48 kHz) land
    /// on frames 12000, 48000 and 48001 of the timeline for any block size,
    /// and a seek passes over what came before.
    func testAFilePlaysAtItsFramesForAnyBlockSize() throws {
        // 24000 ticks a beat at the default 120 bpm: a tick is one frame at 48 kHz.
        let file = try StandardMIDIFile(bytes: MIDIFileBytes.format0(division: 24_000, events: [
            (12_000, [0x90, 60, 100]), (36_000, [0x90, 62, 100]), (1, [0x80, 62, 0]),
            (23_999, [0xF0, 3, 1, 2, 0xF7]),  // system exclusive: not played
            (24_000, [0xFF, 0x2F, 0]),  // end of track at 2 s
        ]), path: "t.mid")
        XCTAssertEqual(file.events.count, 3, "sysex is not kept")
        let storage = UnsafeMutablePointer<MIDIEvent>.allocate(capacity: 16)
        defer { storage.deallocate() }
        let list = UnsafeMutablePointer<MIDIEventList>.allocate(capacity: 1)
        defer { list.deallocate() }
        list.initialize(to: MIDIEventList(events: storage, capacity: 16))
        for block in [1, 64, 100, 256, 4096] {
            var playback = MIDIFilePlayback(file: file, startFrame: 0, sampleRate: 48_000)
            defer { playback.deallocate() }
            XCTAssertEqual(playback.endFrame, 96_000)
            var heard: [Int] = []
            var start = 0
            while start < 96_000 {
                playback.fill(list, timelineFrame: start, frames: block)
                heard += (0..<list.pointee.count).map { start + Int(list.pointee.events[$0].frame) }
                start += block
            }
            XCTAssertEqual(heard, [12_000, 48_000, 48_001], "blocks of \(block)")

            var live = MIDIFilePlayback(file: file, startFrame: 480, sampleRate: 48_000)
            defer { live.deallocate() }
            live.seek(timelineFrame: 20_000)
            heard = []
            for _ in 0..<400 {
                let position = live.position
                live.fillNext(list, frames: 256)
                heard += (0..<list.pointee.count).map { position + Int(list.pointee.events[$0].frame) }
            }
            XCTAssertEqual(heard, [48_480, 48_481], "from frame 20000, the file starting at 480")
        }
    }
}
