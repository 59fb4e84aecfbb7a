import HostCore
@testable import JackIO
import XCTest

/// The pulses `clock_out` sends, cycle by cycle, from the own transport
/// (`LiveTransport` with no JACK client) at 48 kHz, with no JACK server:
/// expected frames are worked out here from the tempo (a pulse lasts
/// 48000 × 60 / (24 × bpm) frames), not from the code's own numbers.
final class MIDIClockOutputTests: XCTestCase {
    /// One cycle's opening and pulses (absolute frames), as `sendMIDIClock` writes them.
    private static func cycle(_ transport: inout LiveTransport, _ output: inout MIDIClockOutput, start: Int64,
                              frames: Int) -> (opening: MIDIClockOutput.Opening, pulses: [Int64]) {
        let position = transport.position(frames: frames, sampleRate: 48_000)
        let pulses = position.beat * 4 / Double(position.beatUnit) * 24
        let opening = output.open(rolling: position.speed != 0, pulses: pulses, generation: position.generation)
        guard position.speed != 0 else { return (opening, []) }
        let framesPerPulse = 48_000 * 60 / (position.beatsPerMinute * 4 / Double(position.beatUnit) * 24)
        var sent: [Int64] = []
        while let offset = output.nextPulseOffset(at: pulses, framesPerPulse: framesPerPulse, frames: UInt32(frames)) {
            sent.append(start + Int64(offset))
        }
        return (opening, sent)
    }

    /// Three pulses take 2559.7 frames (bpm = 120000 × 3 / 2559.7), so pulse
    /// 3 falls 0.3 frames before the 11th cycle of 256 frames (frame 2560):
    /// its nearest frame is that cycle's first. The tempo changes to 150 bpm
    /// (800 frames a pulse) right there; the pulse must still go, at 2560,
    /// and the next ones every 800 frames from where the 150 bpm started.
    func testAPulseAtACyclesLastHalfFrameSurvivesATempoChange() {
        let before = 120_000 * 3 / 2559.7
        var transport = LiveTransport(tempo: Tempo(beatsPerMinute: before), sampleRate: 48_000)
        var output = MIDIClockOutput()
        var sent: [Int64] = []
        for index in 0..<80 {
            if index == 10 { transport.requestedTempo.store(Double(150).bitPattern, ordering: .relaxed) }
            sent += Self.cycle(&transport, &output, start: Int64(index * 256), frames: 256).pulses
        }
        // Pulses 0...2 at n × 2559.7 / 3; pulse 3 at 2560; from there on 150 bpm:
        // pulse n at 2560 + (n − p) × 800, p = 2560 × 3 / 2559.7 pulses at frame 2560.
        let framesBefore = 2559.7 / 3, atChange = 2560 * 3 / 2559.7
        var expected: [Int64] = (0...2).map { Int64((Double($0) * framesBefore).rounded()) } + [2560]
        var pulse = 4
        while true {
            let frame = Int64((2560 + (Double(pulse) - atChange) * 800).rounded())
            if frame >= 80 * 256 { break }
            expected.append(frame)
            pulse += 1
        }
        XCTAssertEqual(sent, expected, "every pulse, at its frame")
    }

    /// 120 bpm (a pulse every 1000 frames) changed to 150 (every 800) at
    /// each cycle in turn, in cycles of 64, 256 and 1000 frames: the pulses
    /// are 1000 apart, then at most one interval between 800 and 1000 where
    /// the tempo changed, then 800 apart: none lost, none sent twice.
    func testNoPulseIsLostOrDoubledWhereverTheTempoChanges() {
        for frames in [64, 256, 1000] {
            for change in 1..<60 {
                var transport = LiveTransport(tempo: Tempo(beatsPerMinute: 120), sampleRate: 48_000)
                var output = MIDIClockOutput()
                var sent: [Int64] = []
                for index in 0..<(30_000 / frames + change) {
                    if index == change { transport.requestedTempo.store(Double(150).bitPattern, ordering: .relaxed) }
                    sent += Self.cycle(&transport, &output, start: Int64(index * frames), frames: frames).pulses
                }
                let intervals = zip(sent.dropFirst(), sent).map { $0 - $1 }
                let thousands = intervals.prefix { $0 == 1_000 }
                let rest = intervals.dropFirst(thousands.count)
                let between = rest.prefix { $0 != 800 }
                let eights = rest.dropFirst(between.count)
                XCTAssertTrue(between.count <= 1 && between.allSatisfy { (800...1_000).contains($0) } && eights.allSatisfy { $0 == 800 },
                              "\(frames)-frame cycles, the change at cycle \(change): \(intervals)")
            }
        }
    }

    /// Started at beat 1.3 (quarters, 120 bpm: 31.2 pulses), the clock sends
    /// song position 6 (sixteenths: the first whole one at or after 31.2 / 6
    /// = 5.2) and its first pulse is pulse 36 = 6 × 6, at beat 1.5: 0.2 beats
    /// (4800 frames) after the start, where devices resuming at position 6 expect it.
    func testAContinueSendsTheSongPositionItsPulsesResumeAt() {
        var transport = LiveTransport(tempo: Tempo(beatsPerMinute: 120), sampleRate: 48_000)
        transport.requestedRolling.store(false, ordering: .relaxed)
        var output = MIDIClockOutput()
        _ = Self.cycle(&transport, &output, start: 0, frames: 256)
        transport.clock.relocate(toBeat: 1.3)
        _ = Self.cycle(&transport, &output, start: 0, frames: 256)
        transport.requestedRolling.store(true, ordering: .relaxed)
        var openings: [MIDIClockOutput.Opening] = []
        var sent: [Int64] = []
        for index in 0..<40 {
            let result = Self.cycle(&transport, &output, start: Int64(index * 256), frames: 256)
            if result.opening != .nothing { openings.append(result.opening) }
            sent += result.pulses
        }
        XCTAssertEqual(openings, [.continueAt(sixteenths: 6)])
        XCTAssertEqual(sent.first, 4800, "the first pulse at beat 1.5, 6 × the song position")
        XCTAssertEqual(sent.count, (40 * 256 - 4800 + 999) / 1000, "then one every 1000 frames (120 bpm)")
    }

    /// A song position beyond 14 bits is the last one, 0x3FFF; the pulses go
    /// on from the transport's, not in a burst from 6 × 0x3FFF.
    func testASongPositionBeyondFourteenBitsIsClampedWithoutABurst() {
        var transport = LiveTransport(tempo: Tempo(beatsPerMinute: 120), sampleRate: 48_000)
        transport.requestedRolling.store(false, ordering: .relaxed)
        var output = MIDIClockOutput()
        _ = Self.cycle(&transport, &output, start: 0, frames: 256)
        transport.clock.relocate(toBeat: 10_000)
        transport.requestedRolling.store(true, ordering: .relaxed)
        let result = Self.cycle(&transport, &output, start: 0, frames: 256)
        XCTAssertEqual(result.opening, .continueAt(sixteenths: 0x3FFF))
        XCTAssertEqual(result.pulses, [0], "pulse 240000 at beat 10000, the cycle's first frame, alone")
    }
}
