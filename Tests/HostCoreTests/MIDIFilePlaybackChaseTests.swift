import TestSupport
import XCTest
@testable import HostCore

/// A live MIDI file resumed in its middle (a restarted engine skipping to
/// where the clock puts it) first sends what the passed-over events left
/// set, as a sequencer chases a song started in its middle: for each
/// controller, program, pitch bend and channel pressure, the last value
/// before the resume point, in the file's order; no notes, and nothing a
/// later event set again.
final class MIDIFilePlaybackChaseTests: XCTestCase {
    private func makeList() -> UnsafeMutablePointer<MIDIEventList> {
        let list = UnsafeMutablePointer<MIDIEventList>.allocate(capacity: 1)
        list.initialize(to: MIDIEventList(events: .allocate(capacity: 64), capacity: 64))
        return list
    }

    private func freeList(_ list: UnsafeMutablePointer<MIDIEventList>) {
        list.pointee.events.deallocate()
        list.deallocate()
    }

    func testASkipSendsTheLastValueOfEachControllerProgramAndBendAtTheNextBlock() throws {
        // 24000 ticks a beat at the default 120 bpm: a tick is one frame at 48 kHz.
        let file = try StandardMIDIFile(bytes: MIDIFileBytes.format0(division: 24_000, events: [
            (0, [0xB0, 0, 1]),          // bank select, channel 1
            (0, [0xC0, 5]),             // program 5, channel 1
            (100, [0xB0, 7, 40]),       // volume 40
            (100, [0x90, 60, 100]),     // a note: not chased
            (100, [0xB1, 7, 64]),       // volume 64, channel 2
            (100, [0xB0, 7, 90]),       // volume 90: the last before the skip
            (100, [0xE0, 0, 80]),       // pitch bend
            (100, [0xD0, 33]),          // channel pressure
            (100, [0x80, 60, 0]),       // note off: not chased
            (1_000, [0xB0, 7, 20]),     // at 1700, after the resume point: played in its place
            (1_000, [0xFF, 0x2F, 0]),
        ]), path: "chase.mid")
        let list = makeList()
        defer { freeList(list) }
        var playback = MIDIFilePlayback(file: file, startFrame: 0, sampleRate: 48_000)
        defer { playback.deallocate() }

        playback.skip(frames: 1_000)  // resume at frame 1000 of the timeline: the events at 0 to 700 are passed
        playback.fillNext(list, frames: 2_000)
        let heard = (0..<list.pointee.count).map { list.pointee.events[$0] }
        XCTAssertEqual(heard.map { [$0.frame, UInt32($0.status), UInt32($0.data1), UInt32($0.data2)] }, [
            [0, 0xB0, 0, 1], [0, 0xC0, 5, 0], [0, 0xB1, 7, 64], [0, 0xB0, 7, 90], [0, 0xE0, 0, 80], [0, 0xD0, 33, 0],
            [700, 0xB0, 7, 20],  // at 1700 on the timeline, 700 into the block
        ])

        // Played on without a skip: nothing is sent again.
        playback.fillNext(list, frames: 2_000)
        XCTAssertEqual(list.pointee.count, 0)
    }

    /// A skip that passes no event sends nothing.
    func testASkipOverNothingSendsNothing() throws {
        let file = try StandardMIDIFile(bytes: MIDIFileBytes.format0(division: 24_000, events: [
            (5_000, [0xB0, 7, 40]), (1_000, [0xFF, 0x2F, 0]),
        ]), path: "late.mid")
        let list = makeList()
        defer { freeList(list) }
        var playback = MIDIFilePlayback(file: file, startFrame: 0, sampleRate: 48_000)
        defer { playback.deallocate() }
        playback.skip(frames: 1_000)
        playback.fillNext(list, frames: 1_000)
        XCTAssertEqual(list.pointee.count, 0)
    }
}
