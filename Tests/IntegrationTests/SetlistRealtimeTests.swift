import CCoreShim
import Foundation
import HostCore
import JackIO
@testable import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// Fifty setlist switches in a row, each with a spillover, in this process,
/// which links RealtimeSanitizer with halt_on_error (the whole test binary
/// does; RealtimeSanitizerTests prove a violation kills it): reaching the
/// end means no switch, spill or spill removal made the callback allocate,
/// lock or block. And memory stays flat: resident memory (VmRSS) once the
/// spills of the first 10 switches are gone, and again once those of all 50
/// are, differ by less than a leak would make.
final class SetlistRealtimeTests: XCTestCase {
    /// verse: a burst through mda Delay (feedback 0.9) and a constant
    /// through eg-amp; solo: the constant through eg-amp at -6 dB. Each
    /// switch to verse makes a new mda Delay and eg-amp; each to solo spills
    /// them for 1 s (a switch every 50 ms: the spill before rings on, an
    /// older one is cut with a 10 ms fade and goes at the next switch at the
    /// latest). Measured here: the 40 switches
    /// after the tenth grow resident memory by under 100 KiB; made to keep
    /// each graph it replaced (its plugins and plans), by 3.3 MiB. The bound
    /// is 1 MiB.
    func testFiftySwitchesKeepMemoryFlatAndTheCallbackRealtimeSafe() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the check needs RealtimeSanitizer linked into the test binary")
        let options = ProcessInfo.processInfo.environment["RTSAN_OPTIONS"] ?? ""
        XCTAssertFalse(options.contains("halt_on_error=false") || options.contains("halt_on_error=0"))

        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        defer { server.stop() }
        let folder = try Tools.temporaryFolder(#function)
        let rate = 48_000
        let burst = (0..<rate * 30).map { $0 < rate / 5 ? Float(0.5 * sin(2 * Double.pi * 440 * Double($0) / 48_000)) : 0 }
        try Audio(channels: [burst, burst]).write(folder.appendingPathComponent("burst.wav").path)
        try Audio.constant([0.5], frames: rate * 30).write(folder.appendingPathComponent("dc.wav").path)
        let ends = "  burst: { file: burst.wav }\n  dc: { file: dc.wav }\n  wet: { output: 2 }\n  dry: { output: 1 }\n"
        try """
            fxhost: 1
            nodes:
            \(ends)  echo: { plugin: mda/Delay, params: { l_delay: 0.3, feedback: 0.9, fx_mix: 1 } }
              amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
            connect: [{ from: burst, to: echo }, { from: echo, to: wet }, { from: dc, to: amp }, { from: amp, to: dry }]

            """.write(to: folder.appendingPathComponent("verse.yaml"), atomically: true, encoding: .utf8)
        try """
            fxhost: 1
            nodes:
            \(ends)  trim: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: -6 } }
            connect: [{ from: dc, to: trim }, { from: trim, to: dry }]

            """.write(to: folder.appendingPathComponent("solo.yaml"), atomically: true, encoding: .utf8)
        let show = folder.appendingPathComponent("show.yaml").path
        try "fxhost-setlist: 1\nspillover: 1s\npatches: [{ name: verse, patch: verse.yaml }, { name: solo, patch: solo.yaml }]\n"
            .write(toFile: show, atomically: true, encoding: .utf8)

        let setlist = try SetlistParser.load(path: show)
        let patch = try setlist.readPatches()[0]
        let units = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = try PatchLoader(units: units).graph(for: patch)
        let notifier = EventNotifier()
        var sessionOptions = LiveSession.Options(server: server)
        sessionOptions.notifier = notifier
        let patchFile = LivePatchFile(path: setlist.entries[0].path, patch: patch,
                                      text: try PatchFileReader.read(path: setlist.entries[0].path)) {
            reference throws(UnitError) in try units.makeUnit(reference)
        }
        let engine = InProcessEngine(session: try LiveSession(graph: graph, options: sessionOptions), patchFile: patchFile)
        engine.dispatcher.setlist = LiveSetlist(setlist: setlist, first: patch)
        engine.makesPatchConnections = false
        var hostOptions = LiveHost.Options()
        hostOptions.duration = 120  // A bound only: the switcher ends the run.
        let host = LiveHost(engine: engine, notifier: notifier, signals: nil, options: hostOptions)
        host.attach(SetlistSpillTimer(dispatcher: engine.dispatcher))
        let switcher = Switcher(dispatcher: engine.dispatcher)
        host.attach(switcher)
        let (reason, _) = try host.run()

        XCTAssertEqual(reason, .quit)
        XCTAssertEqual(switcher.refusals, [], "every switch was carried out")
        XCTAssertEqual(switcher.switches, 50)
        // verse's 6 nodes, two spills ringing (verse's: echo, amp and a fade for each, 4; solo's: trim and its
        // fade, 2) and the one being cut (at most verse's 4): an older one's fades have ended by the next switch.
        XCTAssertLessThanOrEqual(switcher.mostNodes, 6 + 4 + 2 + 4, "the patch's nodes, two spills ringing and one cut")
        let settled = try XCTUnwrap(switcher.residentAfter10), last = try XCTUnwrap(switcher.residentAfter50)
        XCTAssertLessThan(last - settled, 1024, "resident memory grew \(last - settled) KiB over 40 switches")
        XCTAssertEqual(engine.session.graph.nodes.map(\.name).filter { $0.contains(".") }, [], "no spill left")
    }

    /// Switches between the two patches every 50 ms on the host's thread,
    /// reads VmRSS once the spills of the first 10 and then all 50 are gone
    /// (waiting for the graph, not for time), then quits.
    private final class Switcher: LiveFrontEnd {
        let dispatcher: ControlDispatcher
        var switches = 0, mostNodes = 0
        var refusals: [String] = []
        var residentAfter10: Int?, residentAfter50: Int?
        private var next = 0.0

        init(dispatcher: ControlDispatcher) { self.dispatcher = dispatcher }

        func start(_ host: LiveHost) {}

        func service(now: Double) -> LiveFrontEndOutcome {
            guard now >= next else { return .keepRunning }
            next = now + 0.05
            mostNodes = max(mostNodes, dispatcher.session.graph.nodes.count)
            let spilling = dispatcher.session.graph.nodes.contains { $0.name.contains(".") }
            if switches == 10 && residentAfter10 == nil {
                if !spilling { residentAfter10 = Self.residentKiB() }
                return .keepRunning
            }
            if switches == 50 {
                guard !spilling else { return .keepRunning }
                residentAfter50 = Self.residentKiB()
                return .quit
            }
            do {
                try dispatcher.dispatch(switches % 2 == 0 ? .nextPatch : .previousPatch, from: .console)
            } catch {
                refusals.append(error.description)
            }
            switches += 1
            return .keepRunning
        }

        func nextDeadline() -> Double? { next }

        static func residentKiB() -> Int {
            let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "") ?? 0
        }
    }
}
