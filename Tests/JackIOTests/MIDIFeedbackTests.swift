import Foundation
import HostCore
import JackIO
import LV2Bridge
import LiveControl
import TestSupport
import XCTest

/// MIDI feedback on a private dummy server, heard by a JACK MIDI input no
/// one here wrote (python's JACK-Client, `MIDIReceiver`). The oracle is the
/// arithmetic of the mapping's inverse: on `{ cc: 7, to: amp:gain, range:
/// [-30, 6], channel: 3 }`, a gain g is sent as round(127 × (g + 30) / 36) on
/// channel 3; a bypass switch as 0 or 127. This target links
/// RealtimeSanitizer and halts on a violation, so this is also a sanitizer
/// run of the callback's feedback part (and of the controller path into it).
final class MIDIFeedbackTests: XCTestCase {
    private typealias Controller = MIDIReceiver.Controller

    private static func gain(_ decibels: Double) -> Controller {
        Controller(channel: 3, controller: 7, value: Int((127 * (decibels + 30) / 36).rounded()))
    }

    private static func bypass(_ on: Bool) -> Controller { Controller(channel: 1, controller: 64, value: on ? 127 : 0) }

    func testEveryChangeIsSentBackOnceExceptTheControllersOwn() throws {
        // At start: each mapped value once (eg-amp's default gain, 0 dB; not bypassed). Again on a new
        // rig while the receiver heard none of it and the server reported xruns (a cycle's MIDI lost).
        var expected = [Self.gain(0), Self.bypass(false)]
        var earlier: FeedbackRig?
        let (rig, note) = try retakingOnXruns({ _ in
            earlier?.close()
            let rig = try FeedbackRig(mappings: [
                MIDIMapping(trigger: .controller(7), channel: 3,
                            target: .parameter(node: "amp", symbol: "gain", range: -30...6, curve: .linear)),
                MIDIMapping(trigger: .controller(64), target: .bypass(node: "amp")),
            ], scenes: [SceneDeclaration(name: "quiet", nodes: [
                .init(node: "amp", parameters: [ParameterSetting(symbol: "gain", value: .number(-24))], bypass: true),
            ])])
            earlier = rig
            _ = eventually(within: 10) { rig.receiver.controllers.count >= expected.count }
            return (rig, rig.session.status().xruns)
        }, passes: { $0.receiver.controllers.count >= expected.count })
        defer { rig.close() }
        let (server, receiver, session, dispatcher) = (rig.server, rig.receiver, rig.session, rig.dispatcher)
        XCTAssertEqual(session.feedbackPortFullName, "\(session.client.name):midi_feedback")
        XCTAssertTrue(eventually(within: 30) { receiver.controllers.count >= expected.count }, receiver.output + note)

        // A `set`: its value; a scene: its gain and its bypass.
        try dispatcher.dispatch(.set(node: "amp", parameter: "gain", value: .number(-15)), from: .console)
        expected.append(Self.gain(-15))
        XCTAssertEqual(Self.gain(-15).value, 53, "127 × 15/36 = 52.9")
        XCTAssertTrue(eventually(within: 30) { receiver.controllers.count >= expected.count }, receiver.output)
        try dispatcher.dispatch(.scene("quiet"), from: .console)
        expected += [Self.gain(-24), Self.bypass(true)]
        XCTAssertTrue(eventually(within: 30) { receiver.controllers.count >= expected.count }, receiver.output)

        // The controller itself (a burst of 20, ten to a cycle, ending at
        // 100): the gain follows, nothing goes back.
        try MIDISender.send((81...100).map { .controller(7, value: $0, channel: 3) }, server: server.name,
                            to: session.midiPortFullName ?? "", perCycle: 10)
        let moved = Float(-30 + 36 * 100.0 / 127)
        XCTAssertTrue(eventually(within: 30) {
            dispatcher.pollMIDIChanges()
            return abs((session.parameterValues(node: "amp")["gain"] ?? .nan) - moved) < 1e-4
        })
        // `feedback`: every mapped value again, the controller's included.
        _ = try dispatcher.dispatch(.feedback, from: .console)
        expected += [Controller(channel: 3, controller: 7, value: 100), Self.bypass(true)]
        XCTAssertTrue(eventually(within: 30) { receiver.controllers.count >= expected.count }, receiver.output)
        XCTAssertEqual(receiver.controllers, expected,
                       "each change once, the controller's own moves not echoed between the scene and `feedback`")
        try session.finish()
    }

    /// Two mappings of CC 7 on channel 3 (amp's gain over -30...6 and over
    /// -60...0): one message per change, the later mapping's value. At
    /// start eg-amp's 0 dB is 127 × 60/60 = 127 (not also 127 × 30/36 = 106);
    /// `set amp gain -15` is 127 × 45/60 = 95 (not also 53); `feedback` sends 95 once.
    func testTwoMappingsOfOneControllerSendOneMessage() throws {
        let rig = try FeedbackRig(mappings: [
            MIDIMapping(trigger: .controller(7), channel: 3,
                        target: .parameter(node: "amp", symbol: "gain", range: -30...6, curve: .linear)),
            MIDIMapping(trigger: .controller(7), channel: 3,
                        target: .parameter(node: "amp", symbol: "gain", range: -60...0, curve: .linear)),
        ])
        defer { rig.close() }
        XCTAssertTrue(eventually(within: 30) { rig.receiver.controllers.count >= 1 }, rig.receiver.output)
        try rig.dispatcher.dispatch(.set(node: "amp", parameter: "gain", value: .number(-15)), from: .console)
        XCTAssertTrue(eventually(within: 30) { rig.receiver.controllers.count >= 2 }, rig.receiver.output)
        _ = try rig.dispatcher.dispatch(.feedback, from: .console)
        XCTAssertTrue(eventually(within: 30) { rig.receiver.controllers.count >= 3 }, rig.receiver.output)
        XCTAssertEqual(rig.receiver.controllers.map(\.value), [127, 95, 95], rig.receiver.output)
        try rig.session.finish()
    }

    /// A bypass switch of any channel (`{ cc: 64, to: amp:bypass }`) answers
    /// on the channel its controller was heard on: channel 1 at start (none
    /// heard yet), then, after the pedal pressed on channel 5 (not echoed),
    /// a console `bypass amp off` goes back on channel 5.
    func testAMappingOfAnyChannelAnswersOnTheChannelItWasHeardOn() throws {
        let rig = try FeedbackRig(mappings: [MIDIMapping(trigger: .controller(64), target: .bypass(node: "amp"))])
        defer { rig.close() }
        XCTAssertTrue(eventually(within: 30) { rig.receiver.controllers.count >= 1 }, rig.receiver.output)
        try MIDISender.send([.controller(64, value: 127, channel: 5)], server: rig.server.name,
                            to: rig.session.midiPortFullName ?? "")
        XCTAssertTrue(eventually(within: 30) { rig.session.isBypassed(node: "amp") == true })
        try rig.dispatcher.dispatch(.bypass(node: "amp", on: false), from: .console)
        XCTAssertTrue(eventually(within: 30) { rig.receiver.controllers.count >= 2 }, rig.receiver.output)
        XCTAssertEqual(rig.receiver.controllers, [Controller(channel: 1, controller: 64, value: 0),
                                                  Controller(channel: 5, controller: 64, value: 0)], rig.receiver.output)
        try rig.session.finish()
    }
}

/// The message feedback sends for one mapping, by arithmetic: a control
/// change (0xB0) on the mapping's channel, 0xB0 + channel − 1.
final class MIDIFeedbackMessageTests: XCTestCase {
    func testTheChannelIsTheMappingsAndAnyChannelIsChannelOne() {
        let scale = MIDIControllerScale(low: -30, high: 6)
        let onThree = MIDIFeedback.message(controller: 7, channel: 3, scale: scale, value: -15)
        XCTAssertEqual([onThree.status, onThree.controller, onThree.value], [0xB2, 7, 53])
        let onSixteen = MIDIFeedback.message(controller: 127, channel: 16, scale: scale, value: 6)
        XCTAssertEqual([onSixteen.status, onSixteen.controller, onSixteen.value], [0xBF, 127, 127])
        let any = MIDIFeedback.message(controller: 64, channel: 0, scale: MIDIControllerScale(low: 0, high: 1, stepping: .toggle),
                                       value: 1)
        XCTAssertEqual([any.status, any.controller, any.value], [0xB0, 64, 127])
    }
}

/// A live session of eg-amp on a private server with `mappings` and a
/// feedback output connected to a python JACK-Client receiver.
private final class FeedbackRig {
    let server: JackServerProcess
    let receiver: MIDIReceiver
    let session: LiveSession
    let dispatcher: ControlDispatcher

    init(mappings: [MIDIMapping], scenes: [SceneDeclaration] = []) throws {
        server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 128)
        receiver = try MIDIReceiver(server: server.name)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: [])
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let main = try graph.addOutput("main", channels: 1, ports: [])
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: main)
        var options = LiveSession.Options(server: server)
        options.midiControl = MIDIControl(outputs: [MIDIReceiver.port], mappings: mappings, scenes: scenes, isDeclared: true)
        session = try LiveSession(graph: graph, options: options)
        try session.start()
        try session.connectPorts()
        session.resendMIDIFeedbackIfAny()
        dispatcher = ControlDispatcher(session: session)
    }

    func close() {
        receiver.stop()
        session.client.close()
    }
}
