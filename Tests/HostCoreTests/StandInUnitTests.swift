@testable import HostCore
import XCTest

/// A stand-in for a plugin that crashed as it was made: compiled and run
/// without ever asking the unit it stands for for an instance (`PortsOnlyUnit`
/// throws if asked), judged by what reaches the output.
final class StandInUnitTests: XCTestCase {
    let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 64, mode: .offline)

    /// `in → bad → out`, `bad` a 1-in `outputs`-out unit put in its node's place by `replaceUnit`.
    private func graph(outputs: Int, bypassed: Bool) throws -> AudioGraph {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let bad = try graph.addUnit("bad", PortsOnlyUnit(name: "Crashing", inputs: 1, outputs: outputs), bypass: bypassed)
        let output = try graph.addOutput("out", channels: outputs)
        try graph.connect(input, to: bad)
        try graph.connect(bad, to: output)
        guard case .unit(let unit, _) = graph.node(named: "bad")!.kind else { throw UnitError("no unit") }
        graph.replaceUnit(of: "bad", with: StandInUnit(standingInFor: unit))
        return graph
    }

    /// Left out (bypassed, as the supervisor leaves it), its input passes through unchanged.
    func testBypassedItPassesItsInputThrough() throws {
        let graph = try graph(outputs: 1, bypassed: true)
        guard case .unit(let unit, let bypassed) = graph.node(named: "bad")!.kind else { return XCTFail("no unit") }
        XCTAssertTrue(unit is StandInUnit)
        XCTAssertTrue(bypassed, "replaceUnit keeps the node's bypass")
        XCTAssertEqual(unit.displayName, "Crashing")
        let result = PlanHarness(plan: try graph.compile(format: format)).render(frames: 200) { _, _, frame in Float(frame + 1) }
        XCTAssertEqual(result["out"]![0], (0..<200).map { Float($0 + 1) })
    }

    /// Played (bypass turned off after it passed its input through), it
    /// writes silence on every output, whatever comes in and whatever its
    /// buffers held.
    func testPlayedItIsSilent() throws {
        let plan = try graph(outputs: 2, bypassed: true).compile(format: format)
        let harness = PlanHarness(plan: plan)
        let passed = harness.render(frames: 64) { _, _, frame in Float(frame + 1) }
        XCTAssertEqual(passed["out"]![1], (0..<64).map { Float($0 + 1) }, "bypassed, the input reaches both outputs")
        plan.bypassFlag(of: "bad")!.pointee = 0
        let played = harness.render(frames: 200) { _, _, frame in Float(frame + 1) }
        XCTAssertEqual(played["out"]![0], [Float](repeating: 0, count: 200))
        XCTAssertEqual(played["out"]![1], [Float](repeating: 0, count: 200))
    }

    /// It takes no preset: that would need the plugin it stands for.
    func testItRefusesAPreset() throws {
        let standIn = StandInUnit(standingInFor: PortsOnlyUnit(name: "Crashing", inputs: 1, outputs: 1))
        XCTAssertThrowsError(try standIn.applyPreset("warm"))
    }
}
