import Foundation
import HostCore
import TestSupport
import XCTest

/// MIDI feedback in `fxhost run` (the supervisor and its engine), on a
/// private dummy server, heard by a JACK MIDI input no one here wrote
/// (python's JACK-Client, `MIDIReceiver`), connected by the patch's
/// `midi-control: { output: … }`. The oracle is arithmetic: on `{ cc: 7,
/// to: amp:gain }` without a range, eg-amp's own range, -90 to 24 dB, so a
/// gain g is sent as CC 7 = round(127 × (g + 90) / 114).
final class MIDIFeedbackRunTests: XCTestCase {
    private static func cc7(_ decibels: Double) -> MIDIReceiver.Controller {
        MIDIReceiver.Controller(channel: 1, controller: 7, value: Int((127 * (decibels + 90) / 114).rounded()))
    }

    private static let bypassOn = MIDIReceiver.Controller(channel: 2, controller: 64, value: 127)
    private static let bypassOff = MIDIReceiver.Controller(channel: 2, controller: 64, value: 0)

    /// At start each mapped value once; then `set amp gain` from the
    /// console and from `oscsend`, and `scene quiet`, each once; the
    /// controller's own CC 7 is not sent back; `feedback` sends everything again.
    func testTheConsoleOSCAndASceneAreSentBackAndTheControllerIsNotEchoed() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let receiver = try MIDIReceiver(server: server.name)
        defer { receiver.stop() }
        let folder = try Tools.temporaryFolder(#function)
        try LiveRunTests.writeAmpPatch(folder, seconds: 60)
        let patch = folder.appendingPathComponent("amp.yaml").path
        try (String(contentsOfFile: patch, encoding: .utf8) + """

        midi-control:
          output: [\(MIDIReceiver.port)]
          map:
            - { cc: 7, to: amp:gain }
            - { cc: 64, to: amp:bypass, channel: 2 }
        scenes:
          quiet: { amp: { gain: -20, bypass: true } }
        """).write(toFile: patch, atomically: true, encoding: .utf8)
        let port = try OSCRunTests.freeUDPPort()
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet", "--osc", "\(port)"], console: true)
        func heard(_ count: Int) -> Bool {
            eventually(within: 30) { receiver.controllers.count >= count }
        }

        var expected = [Self.cc7(0), Self.bypassOff]
        XCTAssertEqual(Self.cc7(0).value, 100, "127 × 90/114 = 100.26")
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)

        run.type("set amp gain -12")
        expected.append(Self.cc7(-12))
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)

        let sent = try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/set", "ssf", "amp", "gain", "-6"])
        XCTAssertEqual(sent.status, 0, "oscsend (liblo-tools) must be installed: \(sent.stderr)")
        expected.append(Self.cc7(-6))
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)

        run.type("scene quiet")
        expected += [Self.cc7(-20), Self.bypassOn]
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)

        // The controller moves the gain (announced on the console); nothing goes back.
        try MIDISender.send([.controller(7, value: 30), .controller(7, value: 40)], server: server.name, to: "fxhost:midi_control")
        // -90 + 114 × 40/127 = -54.094...
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("amp:gain = -54.09") }, run.stdout + run.stderr)
        run.type("feedback")
        expected += [MIDIReceiver.Controller(channel: 1, controller: 7, value: 40), Self.bypassOn]
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)
        run.type("map")
        XCTAssertTrue(eventually(within: 30) { run.stdout.contains("MIDI feedback → \(MIDIReceiver.port)") }, run.stdout)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertEqual(receiver.controllers, expected,
                       "each change once; the controller's own CC 7 (30, 40) not echoed before `feedback`")
    }

    /// After a plugin crashes the engine and the supervisor restarts it, the
    /// new engine sends the state once, as at start: the gain set before the
    /// crash (-12 dB: CC 7 = 87), once, and then the next change.
    func testARestartedEngineSendsTheStateOnce() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let receiver = try MIDIReceiver(server: server.name)
        defer { receiver.stop() }
        let folder = try Tools.temporaryFolder(#function)
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try Audio.constant([0.5], frames: 48_000 * 120).write(folder.appendingPathComponent("dc.wav").path)
        let patch = folder.appendingPathComponent("crash.yaml").path
        try """
        fxhost: 1
        nodes:
          dc:  { file: dc.wav }
          amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
          bad: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 1000000 } }
          main: { output: 1 }
        chain: [dc, amp, bad, main]
        midi-control:
          output: [\(MIDIReceiver.port)]
          map:
            - { cc: 7, to: amp:gain }
        """.write(toFile: patch, atomically: true, encoding: .utf8)
        let run = try LiveRun(["run", patch, "--server", server.name, "--quiet", "--duration", "300s"], console: true,
                              environment: ["LV2_PATH": plugins.path + ":/usr/lib/lv2", "TMPDIR": folder.path])
        func heard(_ count: Int) -> Bool { eventually(within: 60) { receiver.controllers.count >= count } }

        var expected = [Self.cc7(0)]
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)
        run.type("set amp gain -12")
        expected.append(Self.cc7(-12))
        XCTAssertEqual(Self.cc7(-12).value, 87, "127 × 78/114 = 86.89")
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)
        run.type("set bad after 0")
        XCTAssertTrue(eventually(within: 60) { run.stderr.contains("fxhost: error: node `bad` ") }, run.stderr)
        expected.append(Self.cc7(-12))
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)
        run.type("set amp gain -6")
        expected.append(Self.cc7(-6))
        XCTAssertTrue(heard(expected.count), receiver.output + run.stderr)
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, run.stderr)
        XCTAssertEqual(receiver.controllers, expected, "the state once after the restart, then the next change")
    }
}
