import HostCore
@testable import JackIO
import XCTest

/// The own transport following a MIDI clock (`LiveTransport`, no JACK
/// client), fed pulses at chosen frames through `MIDIClockTempo` as
/// `readMIDIClock` feeds them, 256-frame cycles at 48 kHz: a pulse every
/// 800 frames is 150 bpm (48000 × 60 / (24 × 800)), 19200 frames a beat.
final class LiveTransportClockTests: XCTestCase {
    private struct Rig: ~Copyable {
        var transport = LiveTransport(tempo: Tempo(beatsPerMinute: 150), sampleRate: 48_000)
        var tempo = MIDIClockTempo()
        var cycle = 0
        /// A cycle was skipped since the last pulse (as `readMIDIClock` notes
        /// from the frame times), and before the start waiting for its first.
        var missed = false
        var missedBeforeStart = false

        /// One cycle: the pulses at `pulseFrames` inside it, then its position.
        mutating func run(pulses pulseFrames: [Int], start: Bool = false) -> TransportPosition {
            let first = cycle * 256
            if start {
                missedBeforeStart = missed
                transport.clockStart()
            }
            for frame in pulseFrames where frame >= first && frame < first + 256 {
                let bpm = tempo.pulse(atFrame: UInt32(frame), sampleRate: 48_000, cyclesMissed: missed)
                transport.clockPulse(quarterNotesPerMinute: bpm, offset: frame - first, pulses: tempo.lastPulses,
                                     afterMissedCycles: missed, lostBeforeStart: missedBeforeStart)
                missed = false
                missedBeforeStart = false
            }
            cycle += 1
            return transport.position(frames: 256, sampleRate: 48_000)
        }

        /// A cycle the server ran without fxhost (an xrun): its pulses never come, its frames are not played.
        mutating func skip() {
            cycle += 1
            missed = true
        }
    }

    /// A clock 800 frames a pulse with every pulse up to 40 frames early or
    /// late (a fixed pseudo-random sequence): its 24-interval estimate moves
    /// on every pulse, by up to 2 × 40 / 24 frames (0.42 %). Once settled,
    /// the transport keeps one tempo and its beats stay within a pulse of
    /// the pulses' (40 frames, a 20th of a pulse, never moves them): at most
    /// a few jumps in 20 beats, not one a pulse.
    func testAJitteryClockGivesFewJumpsOnceSettled() {
        var rig = Rig()
        var seed: UInt64 = 12_345
        let frames = (0..<(24 * 24)).map { pulse -> Int in
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return 1000 + pulse * 800 + Int((seed >> 33) % 81) - 40
        }
        // Settled: four beats in (pulse 96), the estimate's window full of jittered pulses.
        var jumpsSettled: Int?
        var tempos: Set<UInt64> = []
        while rig.cycle * 256 < frames.last! + 256 {
            let position = rig.run(pulses: frames, start: rig.cycle == 0)
            guard rig.cycle * 256 > frames[96] else { continue }
            if jumpsSettled == nil { jumpsSettled = rig.transport.jumps.load(ordering: .relaxed) }
            tempos.insert(position.beatsPerMinute.bitPattern)
        }
        let jumps = rig.transport.jumps.load(ordering: .relaxed) - (jumpsSettled ?? 0)
        XCTAssertLessThanOrEqual(jumps, 4, "jumps in the last 20 beats (\(tempos.count) tempos)")
        for bits in tempos {
            XCTAssertEqual(Double(bitPattern: bits), 150, accuracy: 150 * 0.0042, "within the jitter's error")
        }
    }

    /// Exact pulses end at the exact tempo: a change inside the dead-band is
    /// still followed once the estimates stay on one side of the held tempo.
    func testAClockSlightlyOffTheHeldTempoIsFollowedExactly() {
        var rig = Rig()
        // 800 frames for 3 beats, then 804 (149.2537... bpm, 0.5 % slower: inside the dead-band).
        var frames = (0...72).map { $0 * 800 }
        frames += (1...96).map { frames.last! + $0 * 804 }
        var last = TransportPosition()
        while rig.cycle * 256 < frames.last! + 256 { last = rig.run(pulses: frames) }
        XCTAssertEqual(last.beatsPerMinute, 120_000 / 804, accuracy: 1e-9)
    }

    /// After a start, the clock goes from 800 to 640 frames a pulse (150 to
    /// 187.5 bpm) four beats in. The 24-interval estimate lags the change
    /// (the beats would fall behind the pulses by about two and a half
    /// pulses for good); each new tempo places the beats on the pulse it came
    /// with, so two beats after the change pulse k falls where the transport's
    /// beat is k / 24, within 2 frames (the rounding of the tempo's arithmetic).
    func testTheBeatsStayOnTheClocksPulsesAcrossATempoChange() {
        var rig = Rig()
        var pulses = (0...96).map { 10 * 256 + 32 + $0 * 800 }
        pulses += (1...240).map { pulses.last! + $0 * 640 }
        var errors: [Double] = []
        while rig.cycle * 256 < pulses.last! + 256 {
            let first = rig.cycle * 256
            let position = rig.run(pulses: pulses, start: rig.cycle == 10)
            let framesPerBeat = 48_000 * 60 / position.beatsPerMinute
            for (index, frame) in pulses.enumerated() where index >= 96 + 48 && frame >= first && frame < first + 256 {
                let beat = position.beat + Double(frame - first) / framesPerBeat
                errors.append((beat - Double(index) / 24) * 15_360)
            }
        }
        XCTAssertEqual(errors.count, 240 - 48 + 1)
        XCTAssertLessThanOrEqual(errors.map(\.magnitude).max() ?? .infinity, 2, "frames off, pulse by pulse: \(errors)")
    }

    /// An xrun skips the cycle holding pulse 100 (frame 80000 + 2592, in
    /// cycle 322: 82432…82687). The transport, which counts the frames it
    /// plays, is 256 frames behind, and the pulse is lost. The next pulse
    /// counts for two and the transport is placed on it: from then on pulse
    /// k falls where the beat is k / 24 (within 2 frames, the tempo's
    /// rounding), and the tempo stays 150 exactly.
    func testAnXrunThatLosesAPulseLeavesTheBeatsOnThePulses() {
        var rig = Rig()
        let pulses = (0...200).map { 10 * 256 + 32 + $0 * 800 }
        var errors: [Double] = [], tempos: Set<Double> = []
        while rig.cycle * 256 < pulses.last! + 256 {
            let first = rig.cycle * 256
            if first <= pulses[100], pulses[100] < first + 256 {
                rig.skip()
                continue
            }
            let position = rig.run(pulses: pulses, start: rig.cycle == 10)
            guard first > pulses[100] else { continue }
            tempos.insert(position.beatsPerMinute)
            for (index, frame) in pulses.enumerated() where frame >= first && frame < first + 256 {
                let beat = position.beat + Double(frame - first) / 19_200
                errors.append((beat - Double(index) / 24) * 19_200)
            }
        }
        XCTAssertEqual(errors.count, 100)
        XCTAssertLessThanOrEqual(errors.map(\.magnitude).max() ?? .infinity, 2, "frames off, pulse by pulse: \(errors)")
        XCTAssertEqual(tempos, [150])
    }

    /// A start in cycle 108, then an xrun skips cycle 109, which holds the
    /// start's first pulse (pulse 35, frame 28000: beat 0). The next, pulse
    /// 36, counts for two: it is 1/24 of a quarter note, not beat 0, and
    /// pulse k falls where the beat is (k − 35) / 24, within 2 frames.
    func testAnXrunThatLosesTheStartsFirstPulseStillCountsFromIt() {
        var rig = Rig()
        let pulses = (0..<200).map { $0 * 800 }
        var errors: [Double] = []
        while rig.cycle * 256 < pulses.last! + 256 {
            if rig.cycle == 109 {
                rig.skip()
                continue
            }
            let first = rig.cycle * 256
            let position = rig.run(pulses: pulses, start: rig.cycle == 108)
            for (index, frame) in pulses.enumerated() where index >= 36 && frame >= first && frame < first + 256 {
                let beat = position.beat + Double(frame - first) / 19_200
                errors.append((beat - Double(index - 35) / 24) * 19_200)
            }
        }
        XCTAssertEqual(errors.count, 164)
        XCTAssertLessThanOrEqual(errors.map(\.magnitude).max() ?? .infinity, 2, "frames off, pulse by pulse: \(errors)")
    }

    /// Beat 0 falls on the clock's first pulse after its start (0xFA), here
    /// pulse 35 of a steady clock, at frame 28000: 96 frames into cycle 109
    /// (27904...28159), where the start came too. That cycle begins 96
    /// frames before beat 0, the next 160 frames after it (19200 frames a beat).
    func testAStartPlacesBeatZeroAtTheFirstPulse() {
        var rig = Rig()
        let pulses = (0..<100).map { $0 * 800 }
        while rig.cycle < 109 { _ = rig.run(pulses: pulses) }
        let atStart = rig.run(pulses: pulses, start: true)
        XCTAssertEqual(atStart.beat, -96.0 / 19_200, accuracy: 1e-9)
        let next = rig.run(pulses: pulses)
        XCTAssertEqual(next.beat, 160.0 / 19_200, accuracy: 1e-9)
        XCTAssertEqual(next.speed, 1)
    }

    /// A start two cycles before its first pulse (pulse 35, cycle 109): held
    /// at beat 0 till then, then beat 0 at that pulse as above.
    func testAStartWaitsForItsFirstPulse() {
        var rig = Rig()
        let pulses = (0..<100).map { $0 * 800 }
        while rig.cycle < 107 { _ = rig.run(pulses: pulses) }
        let held = [rig.run(pulses: pulses, start: true), rig.run(pulses: pulses)]
        XCTAssertEqual(held.map(\.speed), [0, 0])
        XCTAssertEqual(held.map(\.beat), [0, 0])
        _ = rig.run(pulses: pulses)
        XCTAssertEqual(rig.run(pulses: pulses).beat, 160.0 / 19_200, accuracy: 1e-9)
    }

    /// Song position 8 (sixteenths: 2 quarter notes) in 6/8, where a beat
    /// is an eighth: beat 4, in cycle 20. A continue then rolls from the
    /// clock's next pulse (pulse 7, frame 5600, in cycle 21), which is beat
    /// 4; 12 pulses later (half a quarter note, frame 15200) is beat 5.
    func testASongPositionInSixEightLandsOnItsEighths() {
        var rig = Rig()
        rig.transport.requestedMeter.store(6 * 256 + 8, ordering: .relaxed)
        let pulses = (0..<40).map { $0 * 800 }
        while rig.cycle < 20 { _ = rig.run(pulses: pulses) }
        rig.transport.clockRolling(false)
        rig.transport.clockSongPosition(sixteenths: 8)
        XCTAssertEqual(rig.run(pulses: pulses).beat, 4, accuracy: 1e-12)
        rig.transport.clockRolling(true)
        var beats: [Int: Double] = [:]
        while rig.cycle * 256 <= 15_200 {
            let start = rig.cycle * 256
            let position = rig.run(pulses: pulses)
            for frame in [5_600, 15_200] where (start..<start + 256).contains(frame) {
                beats[frame] = position.beat + Double(frame - start) * position.beatsPerMinute / (60 * 48_000)
            }
        }
        let twoFrames = 2 * 300 / (60 * 48_000.0)  // 300 eighths a minute
        XCTAssertEqual(beats[5_600] ?? 0, 4, accuracy: twoFrames, "the first pulse after the continue")
        XCTAssertEqual(beats[15_200] ?? 0, 5, accuracy: twoFrames, "12 pulses later")
    }

    /// While a clock is followed no timebase master is: a stale "follows
    /// JACK" would make `transport start|stop` move JACK's transport for every client.
    func testFollowingAClockIsNotFollowingJack() {
        var rig = Rig()
        rig.transport.followsJack.store(true, ordering: .relaxed)
        _ = rig.run(pulses: [10])
        XCTAssertFalse(rig.transport.followsJack.load(ordering: .relaxed))
    }
}
