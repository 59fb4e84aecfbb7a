import CCoreShim
import Foundation
import HostCore
import JackIO
import LiveControl
import TestSupport
import XCTest

/// An expression pedal blending two scenes (`{ cc: 11, morph: [clean, lead] }`),
/// live on a private dummy server (`MIDIRig`: a constant 1 through eg-amp
/// `amp` then eg-amp `trim` at -6 dB), judged by arithmetic on the level:
/// `clean` has amp at 0 dB and trim on, `lead` amp at -24 dB and trim
/// bypassed. eg-amp's gain is in dB on a linear scale (no
/// `pprops:logarithmic`). 64 is MIDI's centre (as for pan), so at 64 the
/// gain is the arithmetic midpoint, -12 dB; below it each step is 1/128 of
/// the way (-24 × v/128 dB), above it 1/126 of the rest; the bypass
/// switches at the midpoint: from 64 on the trim is bypassed.
/// The controller comes from a separate JACK client (PyPI's JACK-Client);
/// this target links RealtimeSanitizer and halts on a violation.
final class SceneMorphTests: XCTestCase {
    private static func linear(_ decibels: Double) -> Double { pow(10, decibels / 20) }

    func testAPedalBlendsTwoScenesOnTheParametersScale() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the realtime check needs the sanitizer linked")
        let clean = SceneDeclaration(name: "clean", nodes: [
            .init(node: "amp", parameters: [ParameterSetting(symbol: "gain", value: .number(0))]),
            .init(node: "trim", bypass: false),
        ])
        let lead = SceneDeclaration(name: "lead", nodes: [
            .init(node: "amp", parameters: [ParameterSetting(symbol: "gain", value: .number(-24))]),
            .init(node: "trim", bypass: true),
        ])
        let control = MIDIControl(mappings: [MIDIMapping(trigger: .controller(11), target: .morph("clean", "lead"))],
                                  scenes: [clean, lead])
        let rig = try MIDIRig(control: control, trimDecibels: -6)

        // 64: the midpoint, halfway on the dB scale, and the trim bypassed.
        try rig.send([.controller(11, value: 64)])
        XCTAssertTrue(rig.waitForLevel(Self.linear(-12)), "heard \(String(describing: rig.level))")
        XCTAssertTrue(eventually(within: 10) {
            rig.dispatcher.pollMIDIChanges()
            return rig.heard.changes.contains { $0.kind == .bypass(node: "trim", on: true) }
        }, "\(rig.heard.changes)")
        XCTAssertEqual(Double(rig.session.parameterValues(node: "amp")["gain"] ?? .nan), -12, accuracy: 1e-4)
        XCTAssertEqual(rig.session.isBypassed(node: "trim"), true)

        // 63: just below the midpoint, the trim is on again.
        try rig.send([.controller(11, value: 63)])
        XCTAssertTrue(rig.waitForLevel(Self.linear(-24 * 63 / 128.0 - 6)), "heard \(String(describing: rig.level))")
        // 96: half of the upper half, three quarters of the way.
        try rig.send([.controller(11, value: 96)])
        XCTAssertTrue(rig.waitForLevel(Self.linear(-12 - 12 * 32 / 63.0)), "heard \(String(describing: rig.level))")
        // The ends are the scenes themselves.
        try rig.send([.controller(11, value: 127)])
        XCTAssertTrue(rig.waitForLevel(Self.linear(-24)), "heard \(String(describing: rig.level))")
        try rig.send([.controller(11, value: 0)])
        XCTAssertTrue(rig.waitForLevel(Self.linear(-6)), "heard \(String(describing: rig.level))")
        try rig.session.finish()
    }

    /// The blend's arithmetic on each scale, by hand: linear halfway between
    /// -24 and 0 is -12; logarithmic halfway between 100 and 10000 is their
    /// geometric mean 1000; a switch takes the second from 0.5 on.
    func testTheBlendOnEachScale() {
        XCTAssertEqual(SceneMorph.blend(0, -24, shape: .linear, position: 0.5), -12)
        XCTAssertEqual(Double(SceneMorph.blend(100, 10_000, shape: .logarithmic, position: 0.5)), 1000, accuracy: 1e-3)
        XCTAssertEqual(SceneMorph.blend(0, 1, shape: .atEnd, position: SceneMorph.position(controller: 63)), 0)
        XCTAssertEqual(SceneMorph.blend(0, 1, shape: .atEnd, position: SceneMorph.position(controller: 64)), 1)
        XCTAssertEqual(SceneMorph.position(controller: 64), 0.5, "64 is the midpoint")
        XCTAssertEqual(SceneMorph.position(controller: 0), 0)
        XCTAssertEqual(SceneMorph.position(controller: 127), 1)
        XCTAssertEqual(SceneMorph.position(controller: 200), 1, "a value beyond 127 is 127")
    }
}
