import Foundation
import HostCore
import LV2Bridge
import TestSupport
import XCTest

/// Compiling a plan for one format leaves the instances of another as they
/// play, seen through the probe plugin (TestSupport's ProbePlugin: `out =
/// in + freeWheeling + the worker's answer`, which arrives after the first
/// block): the first block on silence shows the lv2:freeWheeling value the
/// instance reads.
final class CompileSideEffectTests: XCTestCase {
    func testCompilingAnOfflinePlanLeavesTheLiveInstancesNotFreewheeling() throws {
        let unit = try probeUnit()
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let probe = try graph.addUnit("probe", unit)
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: probe)
        try graph.connect(probe, to: output)
        let live = RenderFormat(sampleRate: 48_000, maxBlockFrames: 64, mode: .live)
        var offline = live
        offline.mode = .offline

        let livePlan = try graph.compile(format: live)
        let offlinePlan = try graph.compile(format: offline)

        XCTAssertEqual(firstBlock(of: livePlan), [Float](repeating: 0, count: 64),
                       "the live instance still reads freeWheeling 0 after an offline plan was compiled")
        XCTAssertEqual(firstBlock(of: offlinePlan), [Float](repeating: 1, count: 64),
                       "the offline instance reads freeWheeling 1")
    }

    /// A unit of the probe plugin, from a lilv world that sees only its bundle.
    private func probeUnit() throws -> any ProcessingUnit {
        let folder = try Tools.temporaryFolder()
        let library = try ProbePlugin.buildLibrary(in: folder.appendingPathComponent("build"))
        let bundles = try ProbePlugin.bundle(in: folder.appendingPathComponent("lv2"), library: library)
        let earlier = ProcessInfo.processInfo.environment["LV2_PATH"]
        setenv("LV2_PATH", bundles.path, 1)
        defer { if let earlier { setenv("LV2_PATH", earlier, 1) } else { unsetenv("LV2_PATH") } }
        return try LV2UnitProvider(catalog: PluginCatalog()).makeUnit(ProbePlugin.uri)
    }

    /// The output of the plan's first block on silence.
    private func firstBlock(of plan: RenderPlan) -> [Float] {
        plan.connectPorts()
        for source in plan.sources {
            for channel in source.channels { channel.update(repeating: 0, count: plan.format.maxBlockFrames) }
        }
        plan.program.render(frames: plan.format.maxBlockFrames)
        return Array(UnsafeBufferPointer(start: plan.outputs[0].channels[0], count: plan.format.maxBlockFrames))
    }
}
