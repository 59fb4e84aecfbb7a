import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// A constant 1 from a loopback client through two eg-amps in series,
/// `amp` then `trim`, and back, live on a private dummy server, with MIDI
/// control (the session's `midi_control` port) and a dispatcher: the level
/// heard is 10^((amp + trim) / 20) by arithmetic (a bypassed trim counts
/// 0 dB), whatever set the gains.
final class MIDIRig {
    let server: JackServerProcess
    let loopback: LoopbackClient
    let session: LiveSession
    let dispatcher: ControlDispatcher
    /// Every change announced, in order.
    let heard: ChangeLog

    final class ChangeLog {
        var changes: [ControlChange] = []
    }

    /// The clients close before the server stops (the server goes when the
    /// rig's properties do, after this): a server stopped under open clients
    /// leaves their semaphores in /dev/shm, and libjack 1.9.21 can deadlock
    /// closing a client whose server is gone.
    deinit {
        session.client.close()
        loopback.client.close()
    }

    /// The last sample the loopback client recorded.
    var level: Float? { loopback.latestFrame?.first }
    var midiPort: String { session.midiPortFullName ?? "" }

    /// Starts it with `control` (declared: a MIDI port is registered) and
    /// waits until the level is `trimDecibels`'s (amp at 0 dB).
    /// `connect` false: the session's ports are left for the test to connect.
    init(control: MIDIControl, trimDecibels: Double = 0, bufferFrames: Int = 128, connect: Bool = true) throws {
        server = try JackServerProcess(sampleRate: 48_000, bufferFrames: bufferFrames)
        loopback = try LoopbackClient(server: server.name, constant: 1, channels: 1, capacity: 48_000 * 120)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: ["loopback:source"])
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let trimUnit = try provider.makeUnit("http://lv2plug.in/plugins/eg-amp")
        try trimUnit.setParameter("gain", to: .number(trimDecibels))
        let trim = try graph.addUnit("trim", trimUnit)
        let main = try graph.addOutput("main", channels: 1, ports: ["loopback:record_1"])
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: trim)
        try graph.connect(trim, to: main)
        var options = LiveSession.Options(server: server)
        var declared = control
        declared.isDeclared = true
        options.midiControl = declared
        session = try LiveSession(graph: graph, options: options)
        try session.start()
        if connect {
            try session.connectPorts()
        } else {
            try session.client.connect("loopback:source", to: "\(session.client.name):in")
            try session.client.connect("\(session.client.name):main", to: "loopback:record_1")
        }
        dispatcher = ControlDispatcher(session: session)
        let heard = ChangeLog()
        dispatcher.addListener { heard.changes.append($0) }
        self.heard = heard
        let loopback = self.loopback
        let expected = Float(Decibels.toLinear(trimDecibels))
        XCTAssertTrue(eventually(within: 60) { abs((loopback.latestFrame?.first ?? 0) - expected) < 1e-6 },
                      "eg-amps at 0 and \(trimDecibels) dB pass the constant 1 as \(expected)")
    }

    /// Sends `messages` from a separate JACK client into the session's MIDI port.
    func send(_ messages: [MIDISender.Message], perCycle: Int = 1) throws {
        try MIDISender.send(messages, server: server.name, to: midiPort, perCycle: perCycle)
    }

    /// Polls the dispatcher (as the run loop does) until the level is
    /// `expected` to a relative 1e-5; false after `seconds`.
    func waitForLevel(_ expected: Double, within seconds: Double = 60) -> Bool {
        eventually(within: seconds) {
            dispatcher.pollMIDIChanges()
            guard let level else { return false }
            return abs(Double(level) - expected) <= 1e-5 * max(abs(expected), 1e-3)
        }
    }
}
