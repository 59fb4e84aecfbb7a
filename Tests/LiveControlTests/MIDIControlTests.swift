import Foundation
import HostCore
import CJack
import JackIO
import LiveControl
import TestSupport
import XCTest

/// MIDI controllers and scenes, end to end on private dummy servers: the
/// messages come from a separate JACK client written with PyPI's
/// JACK-Client, and the oracle is arithmetic on the level a loopback client
/// hears through two eg-amps (`amp` then `trim`, see `MIDIRig`). This target
/// links RealtimeSanitizer and halts on a violation, so every test here is
/// also a sanitizer run of the MIDI path.
final class MIDIControlTests: XCTestCase {
    private static func decibelsToLinear(_ decibels: Double) -> Double { pow(10, decibels / 20) }

    private static let lead = SceneDeclaration(name: "lead", nodes: [
        .init(node: "amp", parameters: [ParameterSetting(symbol: "gain", value: .number(-12))]),
        .init(node: "trim", parameters: [ParameterSetting(symbol: "gain", value: .number(-3))], bypass: true),
    ])
    private static let clean = SceneDeclaration(name: "clean", nodes: [
        .init(node: "amp", parameters: [ParameterSetting(symbol: "gain", value: .number(0))]),
        .init(node: "trim", parameters: [ParameterSetting(symbol: "gain", value: .number(-6))], bypass: false),
    ])

    /// CC 7 = 64 on `{ cc: 7, to: amp:gain, range: [-30, 0] }` sets
    /// -30 + 30 × 64/127 dB; the same CC on channel 1 leaves a mapping
    /// restricted to channel 2 alone; the change is announced as from MIDI
    /// and recorded as the parameter's value.
    func testAControllerFromAnotherClientMovesAMappedGainToTheRangesValue() throws {
        let control = MIDIControl(mappings: [
            MIDIMapping(trigger: .controller(7), target: .parameter(node: "amp", symbol: "gain", range: -30...0, curve: .linear)),
            MIDIMapping(trigger: .controller(7), channel: 2,
                        target: .parameter(node: "trim", symbol: "gain", range: -30...0, curve: .linear)),
        ])
        let rig = try MIDIRig(control: control)
        try rig.send([.controller(7, value: 64, channel: 1)])
        let decibels = -30 + 30 * 64.0 / 127
        XCTAssertTrue(rig.waitForLevel(Self.decibelsToLinear(decibels)), "heard \(String(describing: rig.level))")
        XCTAssertTrue(eventually(within: 10) {
            rig.dispatcher.pollMIDIChanges()
            return rig.heard.changes.contains { $0.source == .midi }
        })
        let fromMIDI = rig.heard.changes.filter { $0.source == .midi }
        guard case .parameter(let node, let parameter, let value) = fromMIDI.last?.kind else {
            return XCTFail("announced \(fromMIDI)")
        }
        XCTAssertEqual(node, "amp")
        XCTAssertEqual(parameter, "gain")
        XCTAssertEqual(Double(value), decibels, accuracy: 1e-4)
        XCTAssertFalse(fromMIDI.contains { if case .parameter("trim", _, _) = $0.kind { true } else { false } },
                       "the channel 2 mapping ignores channel 1")
        XCTAssertEqual(Double(rig.session.parameterValues(node: "amp")["gain"] ?? .nan), decibels, accuracy: 1e-4)
        try rig.session.finish()
    }

    /// `learn amp gain`, then a controller moves: it is mapped over the
    /// parameter's own range (eg-amp: -90...24 dB), announced, listed, and
    /// the next value moves the gain; `unlearn` removes it.
    func testLearnMapsTheNextControllerThatMoves() throws {
        let rig = try MIDIRig(control: MIDIControl())
        try rig.dispatcher.dispatch(.learn(node: "amp", parameter: "gain"), from: .console)
        XCTAssertEqual(rig.session.midiLearning, "amp:gain")
        try rig.send([.controller(20, value: 3, channel: 5)])
        XCTAssertTrue(eventually(within: 30) {
            rig.dispatcher.pollMIDIChanges()
            return rig.session.midiControl.mappings.count == 1
        })
        let learned = MIDIMapping(trigger: .controller(20), channel: 5,
                                  target: .parameter(node: "amp", symbol: "gain", range: nil, curve: .linear))
        XCTAssertEqual(rig.session.midiControl.mappings, [learned])
        XCTAssertNil(rig.session.midiLearning)
        XCTAssertTrue(rig.heard.changes.contains(ControlChange(.mapped(learned), from: .midi)), "\(rig.heard.changes)")
        guard case .mappings(let listed, _, let port) = try rig.dispatcher.dispatch(.mappings, from: .console) else {
            return XCTFail("no listing")
        }
        XCTAssertEqual(listed.mappings, [learned])
        XCTAssertEqual(port, rig.midiPort)

        // -90 + 114 × 100/127 dB.
        try rig.send([.controller(20, value: 100, channel: 5)])
        XCTAssertTrue(rig.waitForLevel(Self.decibelsToLinear(-90 + 114 * 100.0 / 127)), "heard \(String(describing: rig.level))")

        try rig.dispatcher.dispatch(.unlearn(node: "amp", parameter: "gain"), from: .console)
        XCTAssertEqual(rig.session.midiControl.mappings, [])
        XCTAssertThrowsError(try rig.dispatcher.dispatch(.unlearn(node: "amp", parameter: "gain"), from: .console))
        try rig.session.finish()
    }

    /// `learn amp gain` when CC 20 already moves `trim:gain` (on any
    /// channel): CC 20 is learned for amp's gain, the mapping to trim goes
    /// (one controller, one parameter), and the announcement names it.
    func testLearnOnAMappedControllerReplacesItsMappingAndSaysSo() throws {
        let earlier = MIDIMapping(trigger: .controller(20), target: .parameter(node: "trim", symbol: "gain", range: nil, curve: .linear))
        let learned = MIDIMapping(trigger: .controller(20), channel: 5,
                                  target: .parameter(node: "amp", symbol: "gain", range: nil, curve: .linear))
        // Again on a new rig while the controller is not learned and the server reported xruns (a
        // missed cycle loses the cycle's MIDI; see `retakingOnXruns`).
        let (rig, note) = try retakingOnXruns({ _ in
            let rig = try MIDIRig(control: MIDIControl(mappings: [earlier]))
            let xruns = rig.session.status().xruns
            try rig.dispatcher.dispatch(.learn(node: "amp", parameter: "gain"), from: .console)
            try rig.send([.controller(20, value: 3, channel: 5)])
            _ = eventually(within: 30) {
                rig.dispatcher.pollMIDIChanges()
                return rig.session.midiControl.mappings == [learned]
            }
            return (rig, rig.session.status().xruns - xruns)
        }, passes: { $0.session.midiControl.mappings == [learned] })
        XCTAssertEqual(rig.session.midiControl.mappings, [learned], note)
        XCTAssertTrue(rig.heard.changes.contains(ControlChange(.mapped(learned, replacing: [earlier]), from: .midi)),
                      "\(rig.heard.changes)")
        try rig.session.finish()
    }

    /// A program change switches scene `lead` (amp -12 dB, trim bypassed)
    /// from amp 0 dB and trim -6 dB: the level goes from 10^(-6/20) to
    /// 10^(-12/20) in one step, never through a block that has only one of
    /// the changes (amp -12 with trim on: 10^(-18/20); trim bypassed with
    /// amp at 0: 1). The bypass is recorded in the graph, so a later edit
    /// keeps it. Then `scene clean` from the console goes back, also in one step.
    func testProgramChangeSwitchesASceneAtOneBlockBoundary() throws {
        let control = MIDIControl(mappings: [MIDIMapping(trigger: .program(2), target: .scene("lead"))],
                                  scenes: [Self.lead, Self.clean])
        // Again on a new rig while the take fails and the server reported
        // xruns (see `retakingOnXruns`: a missed cycle records a cycle of
        // zeros, neither scene's level, or loses the program change).
        let lead = Float(Self.decibelsToLinear(-12))
        let ((rig, switched, strays), note) = try retakingOnXruns({ _ in
            let rig = try MIDIRig(control: control, trimDecibels: -6)
            let xruns = rig.session.status().xruns
            let before = rig.loopback.recordedFrames
            try rig.send([.program(2)])
            // Not drained yet (no pollMIDI): the edit below must take the bypass itself.
            guard eventually(within: 60, { abs((rig.level ?? 0) - lead) <= 1e-5 * lead }) else {
                return ((rig, false, [Float]()), rig.session.status().xruns - xruns)
            }

            // A graph edit compiles a new plan from the graph: the bypass a program change set stays.
            try rig.dispatcher.dispatch(.tap(PortReference(node: "trim"), file: try makeScratchFolder(prefix: "midi")
                .appendingPathComponent("take.wav").path), from: .console)
            XCTAssertEqual(rig.session.isBypassed(node: "trim"), true)
            XCTAssertTrue(rig.waitForLevel(Self.decibelsToLinear(-12)), "heard \(String(describing: rig.level))")
            XCTAssertTrue(rig.heard.changes.contains(ControlChange(.sceneApplied("lead"), from: .midi)), "\(rig.heard.changes)")
            XCTAssertTrue(rig.heard.changes.contains(ControlChange(.bypass(node: "trim", on: true), from: .midi)))

            try rig.dispatcher.dispatch(.scene("clean"), from: .console)
            XCTAssertTrue(rig.waitForLevel(Self.decibelsToLinear(-6)), "heard \(String(describing: rig.level))")
            XCTAssertEqual(rig.session.isBypassed(node: "trim"), false)

            let heard = rig.loopback.recording()[0][before...]
            let levels = [-6.0, -12.0].map { Float(Self.decibelsToLinear($0)) }
            // A few cycles more, for an xrun late in the take to be reported.
            let end = rig.loopback.recordedFrames
            XCTAssertTrue(eventually(within: 30) { rig.loopback.recordedFrames > end + 8 * 128 })
            return ((rig, true, heard.filter { sample in !levels.contains { abs($0 - sample) <= 1e-5 } }), rig.session.status().xruns - xruns)
        }, passes: { $0.1 && $0.2.isEmpty })
        XCTAssertTrue(switched, "heard \(String(describing: rig.level))" + note)
        XCTAssertEqual(strays.count, 0, "every frame is one scene's level or the other's, none between: \(Set(strays).sorted())" + note)
        XCTAssertThrowsError(try rig.dispatcher.dispatch(.scene("leed"), from: .console)) { error in
            XCTAssertTrue("\(error)".contains("did you mean `lead`?"), "\(error)")
        }
        try rig.session.finish()
    }

    /// `input:` connects the MIDI port to every output matching a pattern.
    func testTheInputPatternIsConnected() throws {
        let rig = try MIDIRig(control: MIDIControl(inputs: ["midi-source:.*"]), connect: false)
        let source = try JackClient(name: "midi-source", server: rig.server.name)
        for name in ["a", "b"] {
            XCTAssertNotNil(jack_port_register(try source.handle(), name, "8 bit raw midi", UInt(JackPortIsOutput.rawValue), 0))
        }
        try source.activate()  // JACK connects only active clients' ports
        try rig.session.connectPorts()
        guard let port = rig.session.engine.midiPort else { return XCTFail("no MIDI port") }
        XCTAssertEqual(port.name, "fxhost:midi_control")
        // A client sees its ports' connections once JACK has told it.
        XCTAssertTrue(eventually(within: 30) {
            rig.session.client.connections(of: port).sorted() == ["midi-source:a", "midi-source:b"]
        }, "\(rig.session.client.connections(of: port))")
        try rig.session.finish()
        source.close()
    }

    /// `unlearn tempo tap` (typed at the console) removes the footswitch
    /// mapped with `to: tempo:tap`, though `tempo` is no node; then taps
    /// set no tempo.
    func testUnlearnRemovesTheTapTempoFootswitch() throws {
        let control = MIDIControl(mappings: [MIDIMapping(trigger: .controller(80), target: .tempoTap)])
        let rig = try MIDIRig(control: control)
        guard case .control(let command, _)? = try ConsoleCommand.parse("unlearn tempo tap") else {
            return XCTFail("the console did not read the command")
        }
        try rig.dispatcher.dispatch(command, from: .console)
        XCTAssertEqual(rig.session.midiControl.mappings, [])
        let before = rig.session.transportTempo.beatsPerMinute
        try rig.send([.controller(80, value: 127), .controller(80, value: 127), .controller(80, value: 127)], perCycle: 3)
        rig.dispatcher.pollMIDIChanges()
        XCTAssertEqual(rig.session.transportTempo.beatsPerMinute, before, "no mapping: no tap")
        try rig.session.finish()
    }

    /// 255 program changes in one cycle, switching `lead` and `clean` in
    /// turn and ending on `lead`: only the last is applied, so the level is
    /// lead's and exactly one scene is announced, not 255 (a burst from a
    /// runaway client costs one scene a cycle).
    func testOnlyTheLastProgramChangeOfACycleIsApplied() throws {
        let control = MIDIControl(mappings: [MIDIMapping(trigger: .program(2), target: .scene("lead")),
                                             MIDIMapping(trigger: .program(3), target: .scene("clean"))],
                                  scenes: [Self.lead, Self.clean])
        let rig = try MIDIRig(control: control, bufferFrames: 256)
        let messages: [MIDISender.Message] = (0..<255).map { .program($0 % 2 == 0 ? 2 : 3) }
        try rig.send(messages, perCycle: 255)
        XCTAssertTrue(rig.waitForLevel(Self.decibelsToLinear(-12)), "heard \(String(describing: rig.level))")
        rig.dispatcher.pollMIDIChanges()
        let scenes = rig.heard.changes.filter { if case .sceneApplied = $0.kind { true } else { false } }
        XCTAssertEqual(scenes.map(\.kind), [.sceneApplied("lead")])
        try rig.session.finish()
    }

    /// A pedal's program change on channel 1 and a keyboard's on channel 2
    /// (for a synth, not mapped here) in the same cycle: each channel's last
    /// counts, so the pedal's scene is applied.
    func testAProgramChangeOnAnotherChannelDoesNotHideAMappedOne() throws {
        let control = MIDIControl(mappings: [MIDIMapping(trigger: .program(2), channel: 1, target: .scene("lead"))],
                                  scenes: [Self.lead])
        let rig = try MIDIRig(control: control, bufferFrames: 256)
        try rig.send([.program(2, channel: 1), .program(5, channel: 2)], perCycle: 2)
        XCTAssertTrue(rig.waitForLevel(Self.decibelsToLinear(-12)), "heard \(String(describing: rig.level))")
        try rig.session.finish()
    }

    /// 400 controllers, 16 per cycle, with a program change among them,
    /// under RealtimeSanitizer: nothing is reported, the gain ends at the
    /// last value, and the announcements hold far fewer values than were
    /// sent (the latest per parameter per drain).
    func testABurstOfControllersAndASceneStaysRealtimeSafe() throws {
        let control = MIDIControl(mappings: [
            MIDIMapping(trigger: .controller(7), target: .parameter(node: "amp", symbol: "gain", range: -30...0, curve: .linear)),
            MIDIMapping(trigger: .controller(8), target: .bypass(node: "trim")),
            MIDIMapping(trigger: .program(2), target: .scene("lead")),
            MIDIMapping(trigger: .controller(80), target: .tempoTap),
        ], scenes: [Self.lead])
        let rig = try MIDIRig(control: control, bufferFrames: 64)
        var messages: [MIDISender.Message] = (0..<200).map { .controller(7, value: $0 % 128) }
        messages.append(.program(2))
        // Footswitch taps one frame apart, in one cycle: far above 300 bpm, so 300.
        messages += [.controller(80, value: 127), .controller(80, value: 127), .controller(80, value: 127)]
        messages += (0..<200).map { .controller($0 % 2 == 0 ? 7 : 8, value: 127 - $0 % 128) }
        messages.append(.controller(8, value: 0))
        messages.append(.controller(7, value: 127))
        try rig.send(messages, perCycle: 16)
        // Last: amp at 0 dB, trim active at -3 dB (from the scene).
        XCTAssertTrue(rig.waitForLevel(Self.decibelsToLinear(-3)), "heard \(String(describing: rig.level))")
        rig.dispatcher.pollMIDIChanges()
        let values = rig.heard.changes.filter { if case .parameter = $0.kind { true } else { false } }
        XCTAssertGreaterThan(values.count, 0)
        XCTAssertLessThan(values.count, 100, "a burst is coalesced per drain")
        XCTAssertEqual(rig.heard.changes.filter { $0.kind == .tempo(300) }.map(\.source), [.midi, .midi],
                       "the second and third tap set the tempo, clamped")
        XCTAssertEqual(rig.session.transportTempo.beatsPerMinute, 300)
        XCTAssertEqual(rig.session.isBypassed(node: "trim"), false)
        try rig.session.finish()
    }
}
