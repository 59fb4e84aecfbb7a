import CJack
import Foundation
import HostCore
import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// The latency a live session reports to JACK, read back by a second client
/// as any latency-aware JACK program would. x42 dpl reports 64 frames at
/// 48 kHz (its lookahead; see LatencyPluginTests), so the plan's latency is
/// 64 with it and 0 without; the expected ranges are what feeds the session
/// (as JACK reports it) plus that.
final class LiveSessionLatencyTests: XCTestCase {
    let dpl = "http://gareus.org/oss/lv2/dpl#stereo"
    let dplLatency: UInt32 = 64

    private func range(_ reader: JackClient, _ port: String, _ mode: jack_latency_callback_mode_t) throws -> [UInt32] {
        guard let handle = jack_port_by_name(try reader.handle(), port) else {
            XCTFail("no port \(port)")
            return []
        }
        var range = jack_latency_range_t()
        jack_port_get_latency_range(handle, mode, &range)
        return [range.min, range.max]
    }

    func testOutputsReportThePlanLatencyOnTopOfTheCaptureLatencyAndDropBackWhenDplLeaves() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 2, ports: ["system:capture_1", "system:capture_2"])
        let limiter = try graph.addUnit("lim", provider.makeUnit(dpl))
        let main = try graph.addOutput("main", channels: 2)
        try graph.connect(input, to: limiter)
        try graph.connect(limiter, to: main)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server, clientName: "fx"))
        XCTAssertEqual(session.plan.latencyFrames, Int(dplLatency))
        try session.start()
        try session.connectPorts()

        let reader = try JackClient(name: "reader", server: server.name)
        let captured = try range(reader, "system:capture_1", JackCaptureLatency)
        XCTAssertEqual(captured.count, 2)
        let withDpl = captured.map { $0 + dplLatency }
        XCTAssertTrue(eventually(within: 60) { (try? self.range(reader, "fx:main_1", JackCaptureLatency)) == withDpl },
                      "main_1 capture latency \((try? range(reader, "fx:main_1", JackCaptureLatency)) ?? []) vs \(withDpl)")
        XCTAssertEqual(try range(reader, "fx:main_2", JackCaptureLatency), withDpl)
        // Nothing plays the outputs, so what reaches the inputs is 64 frames from the edge.
        XCTAssertEqual(try range(reader, "fx:in_1", JackPlaybackLatency), [dplLatency, dplLatency])

        // A graph edit takes dpl out of the path: the plan's latency is 0 and JACK hears of it.
        try session.disconnect(PortReference(node: "in"), to: PortReference(node: "lim"))
        try session.disconnect(PortReference(node: "lim"), to: PortReference(node: "main"))
        try session.connect(PortReference(node: "in"), to: PortReference(node: "main"))
        XCTAssertEqual(session.plan.latencyFrames, 0)
        XCTAssertTrue(eventually(within: 60) { (try? self.range(reader, "fx:main_1", JackCaptureLatency)) == captured },
                      "main_1 capture latency \((try? range(reader, "fx:main_1", JackCaptureLatency)) ?? []) vs \(captured)")
        XCTAssertEqual(try range(reader, "fx:in_1", JackPlaybackLatency), [0, 0])
        try session.finish()
    }

    func testAFileSourceCountsFromZeroSoTheOutputsReportExactlyThePlanLatency() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 128)
        let folder = try temporaryFolder()
        let clip = folder.appendingPathComponent("clip.wav").path
        try Audio(channels: [[Float](repeating: 0.25, count: 48_000)]).write(clip)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("clip", file: FilePlayerSource(
            path: clip, channels: 1, sampleRate: 48_000, frames: 48_000))
        let limiter = try graph.addUnit("lim", provider.makeUnit(dpl))
        let main = try graph.addOutput("main", channels: 2)
        try graph.connect(player, to: limiter)
        try graph.connect(limiter, to: main)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server, clientName: "fx"))
        try session.start()
        let reader = try JackClient(name: "reader", server: server.name)
        XCTAssertTrue(eventually(within: 60) {
            (try? self.range(reader, "fx:main_1", JackCaptureLatency)) == [self.dplLatency, self.dplLatency]
        }, "\((try? range(reader, "fx:main_1", JackCaptureLatency)) ?? [])")
        try session.finish()
    }
}
