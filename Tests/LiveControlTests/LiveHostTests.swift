import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// `LiveHost` as a program using the library runs it: a graph, a private
/// dummy server, a duration, no front ends; judged by its tap.
final class LiveHostTests: XCTestCase {
    /// eg-amp at -6 dB on a constant 1 from a loopback client: the host
    /// plays until its duration ends, and the tap it finalised holds
    /// 10^(-6/20) = ×0.501187 for at least the second it ran.
    func testAHostRunsAGraphForItsDurationAndFinalisesItsTaps() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let loopback = try LoopbackClient(server: server.name, constant: 1, channels: 1, capacity: 48_000 * 30)
        let folder = try temporaryFolder()
        let take = folder.appendingPathComponent("take.wav").path
        let units = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: ["loopback:source"])
        let amp = try units.makeUnit("http://lv2plug.in/plugins/eg-amp")
        try amp.setParameter("gain", to: .number(-6))
        let ampNode = try graph.addUnit("amp", amp)
        let output = try graph.addOutput("main", channels: 1, ports: ["loopback:record_1"])
        try graph.connect(input, to: ampNode)
        try graph.connect(ampNode, to: output)
        try graph.installTap(on: ampNode, file: take)

        var options = LiveHost.Options()
        options.duration = 1.5
        let host = try LiveHost(graph: graph, session: LiveSession.Options(server: server), signals: nil, options: options)
        let (reason, status) = try host.run()
        XCTAssertEqual(reason, .duration)
        XCTAssertEqual(status.taps.map(\.state), [.finished])
        let recorded = try Audio.read(take).channels[0]
        let expected = Float(pow(10, -6.0 / 20))
        XCTAssertGreaterThanOrEqual(recorded.count, 48_000, "at least a second of the 1.5 s it ran")
        // The loopback client late on a loaded machine (an xrun the server tells every client of) leaves
        // its cycle silent; nothing else may differ.
        let settled = recorded.drop { $0 != expected }
        XCTAssertGreaterThanOrEqual(settled.filter { $0 == expected }.count, 48_000)
        let others = Dictionary(grouping: settled.filter { $0 != expected }, by: { $0 }).mapValues(\.count)
        XCTAssertTrue(others.isEmpty || (status.xruns > 0 && others.keys.allSatisfy { $0 == 0 }),
                      "the amp's gain on the constant, exactly; else \(others) (value: frames) with \(status.xruns) xruns")
        withExtendedLifetime(loopback) {}
    }
}
