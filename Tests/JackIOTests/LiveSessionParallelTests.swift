import CCoreShim
import Foundation
import HostCore
import JackIO
import LV2Bridge
import TestSupport
import XCTest

/// A live session whose callback shares each cycle with a render worker:
/// three parallel branches of real plugins, played in this process, which
/// links RealtimeSanitizer with halt_on_error (so the callback and the
/// worker made no allocation, lock or blocking call through parameter
/// changes, bypass toggles and a graph edit), and whose worker did run
/// tasks. That the sound is the same as one thread's is the integration
/// tests' business (`fxhost run --threads 2` against an offline render).
final class LiveSessionParallelTests: XCTestCase {
    func testParallelBranchesRunCleanOnARealtimeWorker() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "the check below needs the sanitizer linked")
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 128)
        let folder = try temporaryFolder()
        let clip = folder.appendingPathComponent("noise.wav").path
        try Audio.noise(channels: 2, frames: 48_000 * 2, amplitude: 0.3, seed: 5).write(clip)

        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        let graph = AudioGraph()
        let source = try graph.addFilePlayer("src", file: FilePlayerSource(
            path: clip, channels: 2, sampleRate: 48_000, frames: 48_000 * 2))
        let bus = try graph.addMixer("bus", channels: 2)
        let main = try graph.addOutput("main", channels: 2)
        for (branch, uri) in ["http://drobilla.net/plugins/mda/Overdrive", "http://drobilla.net/plugins/mda/Ambience",
                              "http://drobilla.net/plugins/mda/Delay"].enumerated() {
            let effect = try graph.addUnit("fx\(branch)", provider.makeUnit(uri))
            try graph.connect(source, to: effect)
            try graph.connect(effect, to: bus, gainDecibels: -6)
        }
        try graph.connect(bus, to: main)

        var options = LiveSession.Options(server: server)
        options.threads = 2
        let session = try LiveSession(graph: graph, options: options)
        try session.start()
        XCTAssertTrue(eventually(within: 60) { session.engine.tasksRunByWorkers > 0 }, "the worker never ran a task")
        try session.setParameter(node: "fx0", symbol: "drive", value: .number(0.8))
        for on in [true, false, true] {
            try session.setBypass(node: "fx1", on)
            usleep(30_000)
        }
        try session.disconnect(PortReference(node: "fx2"), to: PortReference(node: "bus"))
        let before = session.engine.tasksRunByWorkers
        XCTAssertTrue(eventually(within: 60) { session.engine.tasksRunByWorkers > before })
        let status = try session.finish()
        XCTAssertEqual(status.threads, 2)
        XCTAssertGreaterThan(status.workerTasks, 0)
    }
}
