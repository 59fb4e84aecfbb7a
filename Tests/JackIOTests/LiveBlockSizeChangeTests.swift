import Foundation
import HostCore
import JackIO
@testable import LV2Bridge
import TestSupport
import XCTest

/// A JACK buffer-size change, made by jackd2's own `jack_bufsize` client on
/// a private dummy server, under RealtimeSanitizer (halt_on_error): x42's
/// IR convolver, which provides LV2's options interface, keeps its instance
/// and the impulse response it loaded; eg-amp, which does not, gets a new
/// one as before. Oracles: object identity, the convolution of a constant
/// (1 × an IR of 0.5 at frame 480 = 0.5), and the latency the plugin
/// reports, which is 0 until an IR is loaded (it is, before the first
/// plan: the plan knows the latency from the start); the kept instance's worker
/// thread, stopped while the plugin is told, loads another IR afterwards.
final class LiveBlockSizeChangeTests: XCTestCase {
    func testTheConvolverKeepsItsInstanceAndImpulseResponseAcrossJacksBufferSizeChange() throws {
        let server = try startJackServer(sampleRate: 48_000, bufferFrames: 256)
        let folder = try makeScratchFolder(prefix: "fxhost-jackio")
        let echo = try ConvolverPreset.write(in: folder, delay: 480, gain: 0.5)
        let quiet = try ConvolverPreset.write(in: folder, name: "quiet", delay: 480, gain: 0.25)
        let world = LV2World(bundles: try ConvolverPreset.bundles(with: echo, quiet))
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: world))
        let loopback = try LoopbackClient(server: server.name, constant: 1, channels: 1, capacity: 48_000 * 120)
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: ["loopback:source"])
        let amp = try graph.addUnit("amp", provider.makeUnit("http://lv2plug.in/plugins/eg-amp"))
        let convolver = try provider.makeUnit(ConvolverPreset.plugin)
        try convolver.applyPreset(ConvolverPreset.label())
        let conv = try graph.addUnit("conv", convolver)
        let main = try graph.addOutput("main", channels: 1, ports: ["loopback:record_1"])
        try graph.connect(input, to: amp)
        try graph.connect(amp, to: conv)
        try graph.connect(conv, to: main)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        try session.connectPorts()
        XCTAssertTrue(eventually(within: 60) { abs((loopback.latestFrame?.first ?? 0) - 0.5) < 1e-4 },
                      "the constant 1 through the IR: 0.5")

        let convUnit = try XCTUnwrap(convolver as? LV2Unit)
        let ampUnit = try XCTUnwrap(session.graph.node(named: "amp").flatMap { node -> LV2Unit? in
            if case .unit(let unit, _) = node.kind { return unit as? LV2Unit } else { return nil }
        })
        let convInstances = convUnit.instances.map(ObjectIdentifier.init)
        let ampInstances = ampUnit.instances.map(ObjectIdentifier.init)
        // The preset's IR is loaded before the plan is made (LV2Unit.settleLatency), so the plan knows its latency.
        let initial = try XCTUnwrap(convUnit.instances.first).latencyFrames
        XCTAssertGreaterThan(initial, 0, "the instance holds its IR from the start")
        XCTAssertEqual(session.plan.latencyFrames, initial, "measured with the IR loaded")

        try runBufferSizeClient(server: server.name, frames: 512)
        XCTAssertTrue(eventually(within: 60) {
            try? session.poll()
            return session.plan.format.maxBlockFrames == 512
        }, "the plan was not rebuilt at 512 frames")
        XCTAssertEqual(convUnit.instances.map(ObjectIdentifier.init), convInstances, "the convolver keeps its instance")
        XCTAssertNotEqual(ampUnit.instances.map(ObjectIdentifier.init), ampInstances, "eg-amp is made anew")
        let reported = try XCTUnwrap(convUnit.instances.first).latencyFrames
        XCTAssertGreaterThan(reported, 0, "the kept instance still holds its IR")
        XCTAssertEqual(session.plan.latencyFrames, reported, "latency measured again on the kept instance")

        // The sound goes on through the same IR at the new size.
        let recordedAtChange = loopback.recordedFrames
        XCTAssertTrue(eventually(within: 60) {
            loopback.recordedFrames > recordedAtChange + 48_000 && abs((loopback.latestFrame?.first ?? 0) - 0.5) < 1e-4
        }, "the constant 1 through the same IR after the change: 0.5")

        // The worker runs again: a preset's IR is loaded by it.
        try session.applyPreset(node: "conv", name: ConvolverPreset.label("quiet"))
        XCTAssertTrue(eventually(within: 60) { abs((loopback.latestFrame?.first ?? 0) - 0.25) < 1e-4 },
                      "the constant 1 through the new IR: 0.25")
        try session.finish()
    }

    /// jackd2's `jack_bufsize FRAMES` client, which asks the server for a new period.
    private func runBufferSizeClient(server: String, frames: Int) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/jack_bufsize")
        process.arguments = [String(frames)]
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "jack_bufsize \(frames)")
    }
}
