import Foundation
import HostCore
@testable import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// A sample-rate change re-instantiates the plugins at the new rate. JACK's
/// dummy driver cannot change rate, so the change is delivered as JACK's
/// callback would deliver it; everything after that is the real path.
final class LiveSessionSampleRateTests: XCTestCase {
    func testASampleRateChangeReinstantiatesThePluginsAtTheNewRate() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let units = LV2UnitProvider(catalog: PluginCatalog())
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 2)
        // swh fastLookaheadLimiter reports (int)(0.005 × rate) frames of latency.
        let limiter = try graph.addUnit("limiter", try units.makeUnit("http://plugin.org.uk/swh-plugins/fastLookaheadLimiter"))
        let output = try graph.addOutput("out", channels: 2)
        try graph.connect(input, to: limiter)
        try graph.connect(limiter, to: output)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server, clientName: "rate"))
        try session.start()
        XCTAssertEqual(session.plan.latencyFrames, 240)

        // What JACK's sample-rate callback does, which the dummy driver never calls.
        LiveEngine.noteSampleRate(44_100, in: session.engine.state)
        try session.poll()
        XCTAssertEqual(session.format.sampleRate, 44_100)
        XCTAssertEqual(session.plan.format.sampleRate, 44_100)
        XCTAssertEqual(session.plan.latencyFrames, 220, "the limiter was made again at 44.1 kHz")
        try session.finish()
    }
}
