import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// A patch file followed live (`--watch`'s reload, `save`) with a message
/// parameter: a constant 1 through x42's convolver, whose steady level is
/// the sum of its impulse response (1, then 0.5, then 0.25), paths written
/// relative to the patch's folder.
final class MessageParameterPatchFileTests: XCTestCase {
    func testAReloadSendsAChangedFileAndSaveWritesTheFileSetLive() throws {
        let folder = try temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        for (name, value) in [("unity.wav", Float(1)), ("half.wav", 0.5), ("quarter.wav", 0.25)] {
            var samples = [Float](repeating: 0, count: 512)
            samples[0] = value
            try Audio(channels: [samples]).write(path(name))
        }
        let text = """
            fxhost: 1
            nodes:
              in: { input: [loopback:source] }
              cab: { plugin: "http://gareus.org/oss/lv2/zeroconvolv#CfgMono", params: { ir: unity.wav } }
              main: { output: [loopback:record_1] }
            chain: [in, cab, main]

            """
        try text.write(toFile: path("live.yaml"), atomically: true, encoding: .utf8)
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let loopback = try LoopbackClient(server: server.name, constant: 1, channels: 1, capacity: 48_000 * 120)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let patch = try PatchParser.parse(text: text, path: path("live.yaml"))
        let session = try LiveSession(graph: try PatchLoader(units: provider).graph(for: patch),
                                      options: LiveSession.Options(server: server))
        try session.start()
        try session.connectPorts()
        let dispatcher = ControlDispatcher(session: session)
        dispatcher.patchFile = LivePatchFile(path: path("live.yaml"), patch: patch, text: text) { reference throws(UnitError) in
            try provider.makeUnit(reference)
        }
        func hears(_ level: Float) -> Bool {
            eventually(within: 60) { loopback.latestFrame.map { abs($0[0] - level) < 1e-4 } ?? false }
        }
        XCTAssertTrue(hears(1), "unity")

        guard case .changed(let reloaded) = try dispatcher.dispatch(
            .reload(text: text.replacingOccurrences(of: "unity.wav", with: "half.wav")), from: .patchFile(path: "live.yaml"))
        else { return XCTFail("a reload answers with its changes") }
        XCTAssertEqual(reloaded.map(\.kind), [.property(node: "cab", property: "ir", value: path("half.wav"))])
        XCTAssertTrue(hears(0.5), "half, from the reloaded file")

        _ = try dispatcher.dispatch(.set(node: "cab", parameter: "ir", value: .label(path("quarter.wav"))), from: .console)
        XCTAssertTrue(hears(0.25), "quarter, set live")
        _ = try dispatcher.dispatch(.save(file: nil), from: .console)
        let saved = try String(contentsOfFile: path("live.yaml"), encoding: .utf8)
        XCTAssertTrue(saved.contains("params: { ir: \"quarter.wav\" }"), saved)
        let reread = try PatchParser.parse(text: saved, path: path("live.yaml"))
        guard case .plugin(let spec)? = reread.node(named: "cab")?.kind else { return XCTFail("no cab") }
        XCTAssertEqual(spec.parameters.map(\.symbol), ["ir"])
        XCTAssertEqual(spec.parameters.map(\.value), [.label("quarter.wav")], "relative to the patch's folder")
        _ = try session.finish()
    }
}
