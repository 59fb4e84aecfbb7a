import CCoreShim
import Foundation
import HostCore
import JackIO
import LiveControl
import TestSupport
import XCTest

/// Scenes that glide, live on a private dummy server (see `MIDIRig`: a
/// constant 1 from a loopback client through eg-amp `amp` then eg-amp
/// `trim` at -6 dB, 128-frame blocks at 48 kHz), judged by arithmetic on
/// every frame of a tap on `trim` (the tap records each block the callback
/// renders, so a late cycle of the loaded machine cannot repeat a block
/// the way a client reading the port may hear it). eg-amp's gain is in dB on a
/// linear scale and it applies one gain per run(), so during a glide of N
/// frames from 0 to -24 dB the k-th block after the one the glide started
/// in must be 10^((g_k − 6)/20) with g_k = −24 × 128k/N, block by block,
/// and from 128k ≥ N exactly the scene's −24 dB, with the trim's bypass
/// switched at that same block (so the −6 dB drops out then, not before).
/// This target links RealtimeSanitizer and halts on a violation, so these
/// are also sanitizer runs of the glide in the callback.
final class SceneGlideTests: XCTestCase {
    private static func linear(_ decibels: Double) -> Double { pow(10, decibels / 20) }

    private static let quiet = SceneDeclaration(name: "quiet", nodes: [
        .init(node: "amp", parameters: [ParameterSetting(symbol: "gain", value: .number(-24))]),
        .init(node: "trim", bypass: true),
    ])

    /// Checks a take of `trim` (`heard`): before the glide the
    /// rig's level, then block k = 1, 2, … (the first block that differs
    /// is k = 1: block 0 plays the ramp at its first frame, the old value)
    /// at the ramp's value, then the scene's level: every block of the
    /// glide, and four after it on the scene's level. Nil when all match,
    /// else what did not.
    private static func rampMismatch(_ heard: ArraySlice<Float>, frames: Int) -> String? {
        let block = 128
        let before = Float(Self.linear(-6))
        guard let first = heard.firstIndex(where: { abs($0 - before) > 1e-6 }) else { return "the level never moved" }
        for k in 1...((frames + block - 1) / block + 4) {
            let start = first + (k - 1) * block
            guard start + block <= heard.endIndex else { return "the recording ends at block \(k)" }
            let elapsed = k * block
            let expected = elapsed >= frames ? Self.linear(-24) : Self.linear(-24 * Double(elapsed) / Double(frames) - 6)
            for index in start..<(start + block) where abs(Double(heard[index]) - expected) > 2e-5 * expected {
                return "block \(k) frame \(index - start): heard \(heard[index]), the ramp is \(expected)"
            }
        }
        return nil
    }

    /// Records a tap on `trim` while `act` runs and the level settles on
    /// `settled`, four blocks more, and returns it, and whether it settled
    /// (a cycle's MIDI lost in an xrun never moves it).
    private func take(_ rig: MIDIRig, settled: Double, _ act: () throws -> Void) throws -> (heard: [Float], settled: Bool) {
        let file = try makeScratchFolder(prefix: "glide").appendingPathComponent("take.wav").path
        try rig.dispatcher.dispatch(.tap(PortReference(node: "trim"), file: file), from: .console)
        try act()
        let isSettled = rig.waitForLevel(settled)
        let end = rig.loopback.recordedFrames
        XCTAssertTrue(eventually(within: 30) { rig.loopback.recordedFrames > end + 8 * 128 })
        try rig.dispatcher.dispatch(.untap(PortReference(node: "trim")), from: .console)
        return (try Audio.read(file).channels[0], isSettled)
    }

    /// `take` on a rig from `makeRig`, again on a new rig (a glide plays
    /// once) while the take fails `passes` or does not settle and the server
    /// reported xruns during it (see `retakingOnXruns`: a late cycle puts a
    /// block of zeros in the tap, or loses the MIDI). Asserts it settled;
    /// returns the rig, its take and the note for the failures.
    private func takeClearOfXruns(_ makeRig: () throws -> MIDIRig, settled: Double, passes: ([Float]) -> Bool,
                                  file: StaticString = #filePath, line: UInt = #line,
                                  _ act: (MIDIRig) throws -> Void) throws -> (rig: MIDIRig, heard: [Float], note: String) {
        let ((rig, heard, isSettled), note) = try retakingOnXruns({ _ in
            let rig = try makeRig()
            let xruns = rig.session.status().xruns
            let (heard, isSettled) = try take(rig, settled: settled) { try act(rig) }
            // A few cycles more, for an xrun late in the take to be reported.
            let end = rig.loopback.recordedFrames
            XCTAssertTrue(eventually(within: 30) { rig.loopback.recordedFrames > end + 8 * 128 })
            return ((rig, heard, isSettled), rig.session.status().xruns - xruns)
        }, passes: { $0.2 && passes($0.1) })
        XCTAssertTrue(isSettled, "heard \(String(describing: rig.level))" + note, file: file, line: line)
        return (rig, heard, note)
    }

    /// `scene quiet --glide 1s`, typed at the console: 48000 frames, 375
    /// blocks: blocks 1...374 on the ramp, block 375 on -24 dB with the trim bypassed.
    func testAGlideFollowsTheRampBlockByBlockAndEndsOnTheScene() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the realtime check needs the sanitizer linked")
        guard case .control(let command, _)? = try ConsoleCommand.parse("scene quiet --glide 1s") else {
            return XCTFail("the console did not read the command")
        }
        XCTAssertEqual(command, .scene("quiet", glide: 1))
        let (rig, heard, note) = try takeClearOfXruns({ try MIDIRig(control: MIDIControl(scenes: [Self.quiet]), trimDecibels: -6) },
                                                      settled: Self.linear(-24), passes: { Self.rampMismatch($0[...], frames: 48_000) == nil }) {
            try $0.dispatcher.dispatch(command, from: .console)
        }
        XCTAssertNil(Self.rampMismatch(heard[...], frames: 48_000).map { $0 + note })
        XCTAssertEqual(rig.session.isBypassed(node: "trim"), true)
        XCTAssertEqual(Double(rig.session.parameterValues(node: "amp")["gain"] ?? .nan), -24)
        XCTAssertTrue(rig.heard.changes.contains(ControlChange(.sceneApplied("quiet"), from: .console)))
        try rig.session.finish()
    }

    /// `{ program: 3, scene: quiet, glide: 500ms }`: 24000 frames, so blocks
    /// 1...187 on the ramp (187 × 128 = 23936) and block 188 on the scene.
    func testAProgramChangeWithAGlideGlides() throws {
        let control = MIDIControl(mappings: [MIDIMapping(trigger: .program(3), target: .scene("quiet"), glide: 0.5)],
                                  scenes: [Self.quiet])
        let (rig, heard, note) = try takeClearOfXruns({ try MIDIRig(control: control, trimDecibels: -6) },
                                                      settled: Self.linear(-24), passes: { Self.rampMismatch($0[...], frames: 24_000) == nil }) {
            try $0.send([.program(3)])
        }
        XCTAssertNil(Self.rampMismatch(heard[...], frames: 24_000).map { $0 + note })
        XCTAssertEqual(rig.session.isBypassed(node: "trim"), true)
        try rig.session.finish()
    }

    /// New mappings published during a glide (a `learn`, a `--watch` edit
    /// of the map: the same plan with a new MIDI table) leave it gliding:
    /// every block of the 1 s ramp is still on it, none lands early.
    func testNewMappingsDuringAGlideLeaveItGliding() throws {
        let (rig, heard, note) = try takeClearOfXruns({ try MIDIRig(control: MIDIControl(scenes: [Self.quiet]), trimDecibels: -6) },
                                                      settled: Self.linear(-24), passes: { Self.rampMismatch($0[...], frames: 48_000) == nil }) { rig in
            try rig.dispatcher.dispatch(.scene("quiet", glide: 1), from: .console)
            XCTAssertTrue(eventually(within: 30) { (rig.level ?? 1) < Float(Self.linear(-10)) }, "the glide is under way")
            let mapping = MIDIMapping(trigger: .controller(7), target: .parameter(node: "amp", symbol: "gain", range: nil, curve: .linear))
            try rig.session.replaceMIDIControl(MIDIControl(mappings: [mapping], scenes: [Self.quiet]))
            XCTAssertGreaterThan(rig.level ?? 0, Float(Self.linear(-24 - 6)), "still under way after the publish")
        }
        XCTAssertNil(Self.rampMismatch(heard[...], frames: 48_000).map { $0 + note })
        try rig.session.finish()
    }

    /// A `set` during a long glide takes over: the gain lands on the set
    /// value and stays there (the glide does not pull it back), while the
    /// trim's bypass, which the set did not touch, still switches at the end.
    func testASetDuringAGlideWins() throws {
        let rig = try MIDIRig(control: MIDIControl(scenes: [Self.quiet]), trimDecibels: -6)
        try rig.dispatcher.dispatch(.scene("quiet", glide: 2), from: .console)
        // Under way: somewhere between the old level and the scene's.
        XCTAssertTrue(eventually(within: 30) { (rig.level ?? 1) < Float(Self.linear(-7)) })
        try rig.dispatcher.dispatch(.set(node: "amp", parameter: "gain", value: .number(3)), from: .console)
        XCTAssertTrue(rig.waitForLevel(Self.linear(3 - 6)), "heard \(String(describing: rig.level))")
        // The bypass switches when the 2 s end: then 3 dB alone.
        XCTAssertTrue(rig.waitForLevel(Self.linear(3)), "heard \(String(describing: rig.level))")
        // A quarter second heard, again while an xrun put a cycle of zeros in
        // it (see `retakingOnXruns`; the glide has ended: a later quarter
        // judges the same), and a few cycles more, for the xruns to be reported.
        let onTheSet = { (after: ArraySlice<Float>) in after.allSatisfy { abs(Double($0) - Self.linear(3)) <= 1e-5 * Self.linear(3) } }
        let (after, note) = retakingOnXruns({ _ in
            let xruns = rig.session.status().xruns, settled = rig.loopback.recordedFrames
            XCTAssertTrue(eventually(within: 30) { rig.loopback.recordedFrames > settled + 48_000 / 4 + 8 * 128 })
            return (rig.loopback.recording()[0][settled..<(settled + 48_000 / 4)], rig.session.status().xruns - xruns)
        }, passes: onTheSet)
        XCTAssertTrue(onTheSet(after), "the glide no longer moves the gain: \(Set(after).sorted())" + note)
        try rig.session.finish()
    }

    /// A new scene's glide during a glide takes over from where the glide
    /// is: `quiet` glides amp 0 → -24 dB over 2 s; part way, `loud` (amp 0
    /// dB, trim on) glides back over 0.5 s. In dB no block may jump more
    /// than the steeper ramp's step (at most 24 × 128/24000 = 0.128 dB), as it
    /// would if the new glide started from the old start or the old end, and
    /// the level ends on `loud`'s, where it stays (the trim's bypass, taken
    /// over too, never switches).
    func testANewSceneDuringAGlideTakesOverFromWhereItIs() throws {
        let loud = SceneDeclaration(name: "loud", nodes: [
            .init(node: "amp", parameters: [ParameterSetting(symbol: "gain", value: .number(0))]),
            .init(node: "trim", bypass: false),
        ])
        // In dB: the largest step between samples, the lowest level, and whether the last second is on loud's level.
        func judge(_ heard: [Float]) -> (largest: Double, lowest: Double, ends: Bool) {
            let decibels = heard.map { 20 * log10(Double($0)) }
            return (zip(decibels, decibels.dropFirst()).map { abs($1 - $0) }.max() ?? 0, decibels.min() ?? 0,
                    heard.suffix(48_000).allSatisfy { abs(Double($0) - Self.linear(-6)) <= 1e-5 })
        }
        let largestStep = 24 * 128 / 24_000 + 1e-3
        let passes = { (heard: [Float]) in
            let (largest, lowest, ends) = judge(heard)
            return largest <= largestStep && lowest < -12 && ends
        }
        let (rig, heard, note) = try takeClearOfXruns({ try MIDIRig(control: MIDIControl(scenes: [Self.quiet, loud]), trimDecibels: -6) },
                                                      settled: Self.linear(-6), passes: passes) { rig in
            try rig.dispatcher.dispatch(.scene("quiet", glide: 2), from: .console)
            XCTAssertTrue(eventually(within: 30) { (rig.level ?? 1) < Float(Self.linear(-12)) }, "the glide is under way")
            try rig.dispatcher.dispatch(.scene("loud", glide: 0.5), from: .console)
            XCTAssertTrue(rig.waitForLevel(Self.linear(-6)), "heard \(String(describing: rig.level))")
            // Past where `quiet`'s 2 s would have ended and switched the bypass.
            let settled = rig.loopback.recordedFrames
            XCTAssertTrue(eventually(within: 30) { rig.loopback.recordedFrames > settled + 96_000 })
        }
        let (largest, lowest, ends) = judge(heard)
        XCTAssertLessThanOrEqual(largest, largestStep, "a jump of \(largest) dB between blocks" + note)
        XCTAssertLessThan(lowest, -12, "the first glide went below -12 dB before the second took over" + note)
        XCTAssertTrue(ends, "ends and stays on loud's level: \(Set(heard.suffix(48_000)).sorted().prefix(5))" + note)
        XCTAssertEqual(rig.session.isBypassed(node: "trim"), false)
        try rig.session.finish()
    }

    /// Bad glides are refused before they reach the session, in each front end's words.
    func testBadGlidesAreRefused() {
        XCTAssertThrowsError(try ConsoleCommand.parse("scene quiet --glide -1s")) { error in
            XCTAssertEqual("\(error)", "a glide cannot be negative, got -1s")
        }
        XCTAssertThrowsError(try ConsoleCommand.parse("scene quiet --glide 2h")) { error in
            XCTAssertEqual("\(error)", "a glide is a time such as `2s` or `500ms`, not `2h`")
        }
        XCTAssertThrowsError(try ConsoleCommand.parse("scene quiet --glide 3600")) { error in
            XCTAssertEqual("\(error)", "a glide lasts at most 60s, got 3600s")
        }
        XCTAssertThrowsError(try ConsoleCommand.parse("scene quiet --slide 1s"))
        XCTAssertThrowsError(try ControlProtocol.command(fromJSON: #"{"v": 1, "cmd": "scene", "name": "quiet", "glide": -2}"#))
        XCTAssertThrowsError(try OSCRequest(OSCMessage("/fxhost/scene", [.string("quiet"), .float(.infinity)])))
        XCTAssertEqual(try OSCRequest(OSCMessage("/fxhost/scene", [.string("quiet"), .float(0.5)])), .control(.scene("quiet", glide: 0.5)))
    }
}
