import Foundation
import HostCore
import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// A plugin with an `lv2:enabled` port bypasses itself: x42's fil4 EQ
/// (+6 dB of master gain) playing a constant 0.25 live fades on its own to
/// exactly its input when bypassed, over many samples, where the host's
/// passthrough (eg-amp's bypass) switches in one sample.
final class EnabledPortBypassTests: XCTestCase {
    func testBypassFadesThroughThePluginsOwnEnabledPort() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let loopback = try LoopbackClient(server: server.name, constant: 0.25, channels: 1, capacity: 48_000 * 60)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: ["loopback:source"])
        let unit = try provider.makeUnit("http://gareus.org/oss/lv2/fil4#mono")
        try unit.setParameter("gain", to: .number(6))
        XCTAssertNotNil(unit.enabledControl, "fil4 declares lv2:enabled")
        let equalizer = try graph.addUnit("eq", unit)
        let main = try graph.addOutput("main", channels: 1, ports: ["loopback:record_1"])
        try graph.connect(input, to: equalizer)
        try graph.connect(equalizer, to: main)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        try session.connectPorts()
        // +6 dB: 0.25 × 10^(6/20) once fil4's own gain smoothing has settled.
        let boosted = Float(0.25 * pow(10, 6.0 / 20))
        XCTAssertTrue(eventually(within: 60) { abs((loopback.latestFrame?.first ?? 0) - boosted) < 1e-3 },
                      "\(String(describing: loopback.latestFrame))")
        // The samples fading (between the levels) and the largest step between samples.
        func judge(_ samples: ArraySlice<Float>) -> (fading: Int, largestStep: Float) {
            (samples.filter { $0 < boosted - 1e-3 && $0 > 0.25 }.count,
             zip(samples, samples.dropFirst()).map { abs($0 - $1) }.max() ?? 0)
        }
        let passes = { (samples: ArraySlice<Float>) in
            let (fading, largestStep) = judge(samples)
            return fading > 64 && largestStep < (boosted - 0.25) / 8
        }
        // The fade, heard again from the boosted level while it fails and the
        // server reported an xrun during it (see `retakingOnXruns`: a missed
        // cycle records a cycle of zeros, a step of the whole level and more).
        let (samples, note) = try retakingOnXruns({ attempt in
            if attempt > 1 {
                try session.setBypass(node: "eq", false)
                XCTAssertTrue(eventually(within: 60) { abs((loopback.latestFrame?.first ?? 0) - boosted) < 1e-3 },
                              "\(String(describing: loopback.latestFrame))")
            }
            let xruns = session.status().xruns, before = loopback.recordedFrames
            try session.setBypass(node: "eq", true)
            XCTAssertTrue(eventually(within: 60) { loopback.latestFrame?.first == 0.25 }, "bypassed: exactly the input")
            let settled = loopback.recordedFrames
            // A few cycles more, for an xrun late in the fade to be reported.
            XCTAssertTrue(eventually(within: 30) { loopback.recordedFrames > settled + 8 * 256 })
            return (loopback.recording()[0][before..<settled], session.status().xruns - xruns)
        }, passes: passes)
        try session.finish()

        let (fading, largestStep) = judge(samples)
        XCTAssertGreaterThan(fading, 64, "the plugin fades itself over many samples, no step" + note)
        XCTAssertLessThan(largestStep, (boosted - 0.25) / 8, "no click: no jump of the whole difference at once" + note)
        XCTAssertEqual(session.isBypassed(node: "eq"), true)
    }
}
