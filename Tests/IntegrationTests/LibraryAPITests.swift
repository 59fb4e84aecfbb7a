import CCoreShim
import CLV2Shim
import Foundation
import HostCore
import LV2Bridge
import XCTest

/// The library API builds the same graph a patch file does, and the render
/// plan it compiles to runs without allocating.
final class LibraryAPITests: XCTestCase {
    let patch = """
        fxhost: 1
        nodes:
          in: { input: 2 }
          drive: { plugin: mda/Overdrive, params: { drive: 0.7 } }
          eq: { plugin: "fil4#stereo" }
          amp: { plugin: eg-amp, params: { gain: -3 } }
          room: { plugin: mda/Ambience, params: { mix: 0.4 } }
          out: { output: 2 }
        chain: [in, drive, eq, amp, room, out]
        taps:
          - { at: drive, file: drive.wav }
        """

    static let catalog = PluginCatalog()

    /// in → Overdrive → fil4 → eg-amp (per channel) → Ambience → out, in code.
    func buildInCode(tapFile: String) throws -> AudioGraph {
        let units = LV2UnitProvider(catalog: Self.catalog)
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 2)
        let drive = try units.makeUnit("mda/Overdrive")
        try drive.setParameter("drive", to: .number(0.7))
        let driveNode = try graph.addUnit("drive", drive)
        let eq = try graph.addUnit("eq", try units.makeUnit("fil4#stereo"))
        let amp = try units.makeUnit("eg-amp")
        try amp.setParameter("gain", to: .number(-3))
        let ampNode = try graph.addUnit("amp", amp)
        let room = try units.makeUnit("mda/Ambience")
        try room.setParameter("mix", to: .number(0.4))
        let roomNode = try graph.addUnit("room", room)
        let output = try graph.addOutput("out", channels: 2)
        try graph.connect(input, to: driveNode)
        try graph.connect(driveNode, to: eq)
        try graph.connect(eq, to: ampNode)
        try graph.connect(ampNode, to: roomNode)
        try graph.connect(roomNode, to: output)
        try graph.installTap(on: driveNode, file: tapFile)
        return graph
    }

    func render(_ graph: AudioGraph, input: String, output: String) throws {
        let plan = try graph.compile(format: RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline))
        var options = RenderOptions()
        options.inputFiles = ["in": input]
        options.outputFiles = ["out": .init(path: output, format: .wavFloat)]
        options.maximumTailSeconds = 0
        options.threads = 2  // public, as the README shows; a chain renders on one thread anyway
        _ = try OfflineRenderer(plan: plan, options: options).run()
    }

    func testCodeAndPatchFileBuildTheSameGraph() throws {
        let folder = try Tools.temporaryFolder()
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.noise(channels: 2, frames: 48000, amplitude: 0.4).write(path("in.wav"))

        let parsed = try PatchParser.parse(text: patch, path: path("patch.yaml"))
        let fromPatch = try PatchLoader(units: LV2UnitProvider(catalog: Self.catalog)).graph(for: parsed)
        try render(fromPatch, input: path("in.wav"), output: path("patch-out.wav"))
        try render(try buildInCode(tapFile: path("code-drive.wav")), input: path("in.wav"), output: path("code-out.wav"))

        XCTAssertIdentical(try Audio.read(path("code-out.wav")), try Audio.read(path("patch-out.wav")))
        XCTAssertIdentical(try Audio.read(path("code-drive.wav")), try Audio.read(path("drive.wav")))
        XCTAssertGreaterThan(try Audio.read(path("code-out.wav")).peak, 0.01)
    }

    /// Compiling a graph again at another block size makes new instances;
    /// plans built on the old ones keep them and still run (as a live
    /// session does across a buffer-size change).
    func testAPlanOutlivesARecompileAtAnotherFormat() throws {
        let units = LV2UnitProvider(catalog: Self.catalog)
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let amp = try units.makeUnit("eg-amp")
        try amp.setParameter("gain", to: .number(-6))
        let ampNode = try graph.addUnit("amp", amp)
        try graph.connect(input, to: ampNode)
        try graph.connect(ampNode, to: try graph.addOutput("out", channels: 1))
        let small = try graph.compile(format: RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline))
        let large = try graph.compile(format: RenderFormat(sampleRate: 48000, maxBlockFrames: 512, mode: .offline))
        for (plan, frames) in [(small, 256), (large, 512), (small, 256)] {
            plan.connectPorts()
            plan.sources[0].channels[0].update(repeating: 0.5, count: frames)
            plan.program.render(frames: frames)
            for frame in 0..<frames {
                XCTAssertEqual(Double(plan.outputs[0].channels[0][frame]), 0.5 * 0.501187, accuracy: 1e-6)
            }
        }
    }

    /// Renders a compiled plan under RealtimeSanitizer (linked into the test
    /// binary; with halt_on_error a single allocation, lock or blocking call
    /// inside a block aborts the run).
    func testRenderingABlockNeitherAllocatesNorLocks() throws {
        XCTAssertEqual(fxhost_rtsan_available(), 1, "RealtimeSanitizer must be linked into the test binary")
        // The tap's file is never opened here, but its name must say a format.
        let plan = try buildInCode(tapFile: "/nonexistent/never-written.wav").compile(
            format: RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline))
        plan.connectPorts()
        let program = plan.program
        // Warm up: first calls may set up lazily (generic metadata, plugin tables).
        program.render(frames: 256)
        let noise = Audio.noise(channels: 2, frames: 256).channels
        for block in 0..<2000 {
            for (channel, buffer) in plan.sources[0].channels.enumerated() {
                noise[channel].withUnsafeBufferPointer { buffer.update(from: $0.baseAddress!, count: 256) }
            }
            fxhost_realtime_enter()
            program.render(frames: block % 7 == 0 ? 100 : 256)
            fxhost_realtime_exit()
        }
        XCTAssertTrue(plan.outputs[0].channels[0][0].isFinite)
    }

    /// A plugin that logs from run() on the realtime thread must not reach
    /// stdio there (it may lock or block): the message is counted instead.
    /// Outside a realtime section it is printed as usual.
    func testThePluginLogDropsAndCountsInsideARealtimeSection() throws {
        let log = try XCTUnwrap(fxhost_log_create("test", 1, 2, 3))
        defer { fxhost_log_destroy(log) }
        let vprintf = try XCTUnwrap(log.pointee.vprintf)
        // Made before the section: Swift's string-to-C conversion allocates.
        let message = try XCTUnwrap(strdup("warning from run(): %d\n"))
        defer { free(message) }
        withVaList([42]) { arguments in
            fxhost_realtime_enter()
            _ = vprintf(log.pointee.handle, 2, message, arguments)
            fxhost_realtime_exit()
        }
        XCTAssertEqual(fxhost_log_suppressed(log), 1)
        withVaList([7]) { _ = vprintf(log.pointee.handle, 2, "a warning outside realtime: %d\n", $0) }
        XCTAssertEqual(fxhost_log_suppressed(log), 1, "printed, not suppressed")
    }
}
