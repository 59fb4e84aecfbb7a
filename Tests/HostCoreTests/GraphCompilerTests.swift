import XCTest
@testable import HostCore

final class GraphCompilerTests: XCTestCase {
    let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 64, mode: .offline)

    func testChainMultipliesThroughEachStage() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let first = try graph.addUnit("a", ScalingUnit(gain: 2))
        let second = try graph.addUnit("b", ScalingUnit(gain: 3))
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: first)
        try graph.connect(first, to: second)
        try graph.connect(second, to: output)
        let plan = try graph.compile(format: format)
        let result = PlanHarness(plan: plan).render(frames: 200) { _, _, frame in Float(frame) }
        XCTAssertEqual(result["out"]![0], (0..<200).map { Float($0) * 6 })
    }

    func testMonoUnitRunsOncePerChannelOfAStereoStream() throws {
        let graph = AudioGraph()
        let unit = ScalingUnit(gain: 0.5)
        let input = try graph.addInput("in", channels: 2)
        let scale = try graph.addUnit("scale", unit)
        let output = try graph.addOutput("out", channels: 2)
        try graph.connect(input, to: scale)
        try graph.connect(scale, to: output)
        let plan = try graph.compile(format: format)
        XCTAssertEqual(plan.nodes.first { $0.name == "scale" }?.instances, 2)
        let result = PlanHarness(plan: plan).render(frames: 64) { _, channel, frame in Float(channel * 1000 + frame) }
        XCTAssertEqual(result["out"]![0], (0..<64).map { Float($0) * 0.5 })
        XCTAssertEqual(result["out"]![1], (0..<64).map { Float(1000 + $0) * 0.5 })
        XCTAssertEqual(unit.states.count, 2)
    }

    func testFanInSumsWithConnectionGains() throws {
        let graph = AudioGraph()
        let a = try graph.addInput("a", channels: 1)
        let b = try graph.addInput("b", channels: 1)
        let bus = try graph.addMixer("bus", channels: 1)
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(a, to: bus)
        try graph.connect(b, to: bus, gainDecibels: -6)
        try graph.connect(bus, to: output)
        let plan = try graph.compile(format: format)
        let result = PlanHarness(plan: plan).render(frames: 10) { source, _, _ in source == 0 ? 0.25 : 1 }
        let expected = Float(0.25 + pow(10, -6.0 / 20))
        for sample in result["out"]![0] { XCTAssertEqual(sample, expected, accuracy: 1e-6) }
    }

    func testMonoSourceFeedsBothChannelsOfAStereoBus() throws {
        let graph = AudioGraph()
        let a = try graph.addInput("a", channels: 1)
        let bus = try graph.addMixer("bus", channels: 2)
        let output = try graph.addOutput("out", channels: 2)
        try graph.connect(a, to: bus)
        try graph.connect(bus, to: output)
        let result = PlanHarness(plan: try graph.compile(format: format)).render(frames: 8) { _, _, frame in Float(frame) }
        XCTAssertEqual(result["out"]![0], (0..<8).map(Float.init))
        XCTAssertEqual(result["out"]![1], (0..<8).map(Float.init))
    }

    func testBypassIsATruePassthroughAndCanBeToggled() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let scale = try graph.addUnit("scale", ScalingUnit(gain: 4, offset: 1), bypass: true)
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: scale)
        try graph.connect(scale, to: output)
        let plan = try graph.compile(format: format)
        let harness = PlanHarness(plan: plan)
        XCTAssertEqual(harness.render(frames: 16) { _, _, frame in Float(frame) }["out"]![0], (0..<16).map(Float.init))
        plan.bypassFlag(of: "scale")!.pointee = 0
        XCTAssertEqual(harness.render(frames: 16) { _, _, frame in Float(frame) }["out"]![0], (0..<16).map { Float($0) * 4 + 1 })
    }

    func testExplicitChannelWiringSwapsChannels() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 2)
        let output = try graph.addOutput("out", channels: 2)
        try graph.connect(input, .channel(1), to: output, .channel(2))
        try graph.connect(input, .channel(2), to: output, .channel(1))
        let result = PlanHarness(plan: try graph.compile(format: format)).render(frames: 4) { _, channel, _ in Float(channel + 1) }
        XCTAssertEqual(result["out"]![0], [2, 2, 2, 2])
        XCTAssertEqual(result["out"]![1], [1, 1, 1, 1])
    }

    func testPortSymbolsAddressAStereoUnitsPorts() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let unit = try graph.addUnit("st", ScalingUnit(ports: 2, gain: 3))
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: unit, .symbol("in2"))
        try graph.connect(unit, .symbol("out2"), to: output)
        let result = PlanHarness(plan: try graph.compile(format: format)).render(frames: 4) { _, _, _ in 1 }
        XCTAssertEqual(result["out"]![0], [3, 3, 3, 3])
    }

    func testFilePlayerPanIsConstantPowerAndGainIsInDecibels() throws {
        let graph = AudioGraph()
        let file = FilePlayerSource(path: "mono.wav", channels: 1, sampleRate: 48000, frames: 10,
                                    gainDecibels: -6, pan: 0)
        let player = try graph.addFilePlayer("vox", file: file)
        let output = try graph.addOutput("out", channels: 2)
        try graph.connect(player, to: output)
        let result = PlanHarness(plan: try graph.compile(format: format)).render(frames: 4) { _, _, _ in 1 }
        // -6 dB × cos(π/4): the centre of a constant-power pan is -3 dB per side.
        let expected = Float(0.501187 * 0.707107)
        for channel in 0..<2 { for sample in result["out"]![channel] { XCTAssertEqual(sample, expected, accuracy: 1e-5) } }
    }

    func testBuffersAreReusedAlongALongChain() throws {
        let graph = AudioGraph()
        var previous = try graph.addInput("in", channels: 1)
        for index in 0..<20 {
            let unit = try graph.addUnit("u\(index)", ScalingUnit(gain: 1, offset: 1))
            try graph.connect(previous, to: unit)
            previous = unit
        }
        try graph.connect(previous, to: try graph.addOutput("out", channels: 1))
        let plan = try graph.compile(format: format)
        XCTAssertLessThanOrEqual(plan.bufferCount, 4)
        let result = PlanHarness(plan: plan).render(frames: 100, block: 30) { _, _, frame in Float(frame) }
        XCTAssertEqual(result["out"]![0], (0..<100).map { Float($0) + 20 })
    }

    func testCycleIsNamed() throws {
        let graph = AudioGraph()
        let a = try graph.addUnit("a", ScalingUnit())
        let b = try graph.addUnit("b", ScalingUnit())
        let c = try graph.addUnit("c", ScalingUnit())
        try graph.connect(a, to: b)
        try graph.connect(b, to: c)
        try graph.connect(c, to: a, location: SourceLocation(file: "p.yaml", line: 9, column: 5))
        XCTAssertThrowsError(try graph.compile(format: format)) { error in
            XCTAssertEqual((error as? GraphError)?.description,
                           "p.yaml:9:5: cycle: a -> b -> c -> a")
        }
    }

    func testAmbiguousChannelCountsAreErrorsThatSayHowToWire() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 3)
        let output = try graph.addOutput("out", channels: 2)
        try graph.connect(input, to: output)
        XCTAssertThrowsError(try graph.compile(format: format)) { error in
            XCTAssertEqual((error as? GraphError)?.description,
                           "`in` sends 3 channels into 2 of `out` (pick channels explicitly, e.g. `in:1 -> out`, or sum them with a `mix: 2` bus)")
        }
    }

    func testMissingChannelIsAnError() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 2)
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, .channel(3), to: output)
        XCTAssertThrowsError(try graph.compile(format: format)) { error in
            XCTAssertEqual((error as? GraphError)?.message, "`in` has 2 output channels; `in:3` does not exist")
        }
    }

    func testOneUnitCannotBeTwoNodes() throws {
        let graph = AudioGraph()
        let unit = ScalingUnit(name: "Scaler")
        try graph.addUnit("a", unit)
        XCTAssertThrowsError(try graph.addUnit("b", unit)) { error in
            XCTAssertEqual((error as? GraphError)?.message,
                           "this Scaler unit is already in the graph as `a`; make a new unit for `b`")
        }
    }

    func testTwoTapsOnOneFileAreRefused() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: output)
        try graph.installTap(on: input, file: "/takes/take.wav")
        try graph.installTap(on: output, file: "/takes/../takes/take.wav", location: SourceLocation(file: "p.yaml", line: 12, column: 5))
        XCTAssertThrowsError(try graph.compile(format: format)) { error in
            XCTAssertEqual("\(error)", "p.yaml:12:5: the tap on `in` and the tap on `out` would both write `/takes/../takes/take.wav`; give each its own file")
        }
    }

    func testATapOverAFileBeingPlayedIsRefused() throws {
        let graph = AudioGraph()
        let player = try graph.addFilePlayer("vox", file: FilePlayerSource(path: "/stems/vox.wav", channels: 1,
                                                                          sampleRate: 48000, frames: 100))
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(player, to: output)
        try graph.installTap(on: output, file: "/stems/vox.wav")
        XCTAssertThrowsError(try graph.compile(format: format)) { error in
            XCTAssertEqual("\(error)", "the tap on `out` would overwrite `/stems/vox.wav`, which file source `vox` plays; record to another file")
        }
    }
}
