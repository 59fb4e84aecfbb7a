import CCoreShim
import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// Message parameters live, in this process, which links RealtimeSanitizer
/// with halt_on_error: reaching the end means the fill hooks, the notify
/// reading and the workers' answers made no allocation or lock on the
/// realtime thread. A constant 1 from a loopback client goes through x42's
/// convolver, whose steady level is the sum of its impulse response (0.5,
/// then 0.25 after `set conv ir`); beside it eg-sampler, whose notify
/// output reports the sample its default state loaded.
final class MessageParameterLiveTests: XCTestCase {
    func testSettingTheImpulseResponseWhilePlayingChangesTheSoundAndStatusShowsIt() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the check below needs the sanitizer linked")
        let folder = try temporaryFolder()
        func impulse(_ name: String, at frame: Int, value: Float) throws -> String {
            var samples = [Float](repeating: 0, count: 1024)
            samples[frame] = value
            let path = folder.appendingPathComponent(name).path
            try Audio(channels: [samples]).write(path)
            return path
        }
        let first = try impulse("first.wav", at: 480, value: 0.5)
        let second = try impulse("second.wav", at: 0, value: 0.25)

        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let loopback = try LoopbackClient(server: server.name, constant: 1, channels: 2, capacity: 48_000 * 120)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1, ports: ["loopback:source"])
        let convolver = try provider.makeUnit("http://gareus.org/oss/lv2/zeroconvolv#CfgMono")
        try convolver.setParameter("ir", to: .label(first), relativeTo: nil)
        let conv = try graph.addUnit("conv", convolver)
        let sampler = try graph.addUnit("sampler", provider.makeUnit("http://lv2plug.in/plugins/eg-sampler"))
        let main = try graph.addOutput("main", channels: 1, ports: ["loopback:record_1"])
        let side = try graph.addOutput("side", channels: 1, ports: ["loopback:record_2"])
        try graph.connect(input, to: conv)
        try graph.connect(conv, to: main)
        try graph.connect(sampler, to: side)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        try session.connectPorts()
        let dispatcher = ControlDispatcher(session: session)

        XCTAssertTrue(eventually(within: 60) { loopback.latestFrame.map { abs($0[0] - 0.5) < 1e-4 } ?? false },
                      "the first impulse response: level 0.5, got \(loopback.latestFrame ?? [])")
        let click = URL(fileURLWithPath: "/usr/lib/lv2/eg-sampler.lv2/click.wav").path
        XCTAssertTrue(eventually(within: 30) { session.status().properties["sampler"]?["sample"] == click },
                      "eg-sampler reports its default sample: \(session.status().properties)")

        guard case .changed(let changes) = try dispatcher.dispatch(
            .set(node: "conv", parameter: "ir", value: .label(second)), from: .console) else {
            return XCTFail("a set answers with its changes")
        }
        XCTAssertEqual(changes.map(\.kind), [.property(node: "conv", property: "ir", value: second)])
        XCTAssertTrue(eventually(within: 60) { loopback.latestFrame.map { abs($0[0] - 0.25) < 1e-4 } ?? false },
                      "the second impulse response: level 0.25, got \(loopback.latestFrame ?? [])")
        XCTAssertEqual(session.status().properties["conv"]?["ir"], second)

        // A message parameter through the realtime thread's fill hook, many times over.
        let tone = folder.appendingPathComponent("tone.wav").path
        try Audio(channels: [[Float](repeating: 0.1, count: 4800)]).write(tone)
        for _ in 0..<20 {
            try session.setMessageParameter(node: "sampler", name: "sample", value: .label(tone))
            try session.setMessageParameter(node: "sampler", name: "gain", value: .number(-6))
        }
        XCTAssertTrue(eventually(within: 30) { session.status().properties["sampler"]?["sample"] == tone })
        XCTAssertThrowsError(try dispatcher.dispatch(.set(node: "conv", parameter: "ir", value: .label("/nowhere.wav")),
                                                     from: .console)) { error in
            XCTAssertEqual("\(error)", "node `conv`: `ir` takes a file path, and /nowhere.wav does not exist")
        }
        _ = try session.finish()
    }
}
