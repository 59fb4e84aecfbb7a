import TestSupport
import XCTest
@testable import HostCore

/// A mono unit that delays its input by `latency` frames and reports that
/// latency, as a lookahead limiter does: a known-latency plugin with no lilv.
final class DelayingUnit: ProcessingUnit {
    struct State {
        var input: UnsafeMutablePointer<Float>?
        var output: UnsafeMutablePointer<Float>?
        var history: UnsafeMutablePointer<Float>
        var length: Int
        var position = 0
    }

    let displayName = "delay"
    let latency: Int
    private var states: [UnsafeMutablePointer<State>] = []

    init(latency: Int) { self.latency = latency }

    deinit {
        for state in states {
            state.pointee.history.deallocate()
            state.deallocate()
        }
    }

    var inputPorts: [AudioPortInfo] { [AudioPortInfo(symbol: "in", name: "In")] }
    var outputPorts: [AudioPortInfo] { [AudioPortInfo(symbol: "out", name: "Out")] }
    var parameters: [ParameterInfo] { [] }
    func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) { throw UnitError("no parameters") }
    func parameterValue(_ symbol: String) -> Float? { nil }
    func applyPreset(_ name: String) throws(UnitError) { throw UnitError("no presets") }

    func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit {
        while states.count < count {
            let history = UnsafeMutablePointer<Float>.allocate(capacity: max(latency, 1))
            history.initialize(repeating: 0, count: max(latency, 1))
            let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
            state.initialize(to: State(history: history, length: latency))
            states.append(state)
        }
        let kernels = states.prefix(count).map { state in
            ProcessorKernel(handle: UnsafeMutableRawPointer(state), run: { handle, frames in
                let state = handle!.assumingMemoryBound(to: State.self)
                guard let input = state.pointee.input, let output = state.pointee.output else { return }
                for frame in 0..<Int(frames) {
                    let sample = input[frame]
                    if state.pointee.length == 0 {
                        output[frame] = sample
                        continue
                    }
                    output[frame] = state.pointee.history[state.pointee.position]
                    state.pointee.history[state.pointee.position] = sample
                    state.pointee.position = (state.pointee.position + 1) % state.pointee.length
                }
            }, connect: { handle, port, data in
                let state = handle!.assumingMemoryBound(to: State.self)
                if port == 0 { state.pointee.input = data?.assumingMemoryBound(to: Float.self) }
                else { state.pointee.output = data?.assumingMemoryBound(to: Float.self) }
            }, inputPorts: [0], outputPorts: [1])
        }
        return PreparedUnit(kernels: kernels, latencyFrames: latency)
    }
}

/// Latency compensation in the compiler and the offline driver. Oracles:
/// an impulse's position and amplitude follow from the latencies by
/// arithmetic.
final class LatencyCompensationTests: XCTestCase {
    /// Blocks smaller than the latencies, so delays span several blocks.
    let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 64, mode: .offline)

    /// Indices of the non-zero samples.
    private func nonZero(_ samples: [Float]) -> [Int] { samples.indices.filter { samples[$0] != 0 } }

    func testParallelDryPathIsDelayedToMeetTheLatentOneBeforeTheSum() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let latent = try graph.addUnit("latent", DelayingUnit(latency: 100))
        let bus = try graph.addMixer("bus", channels: 1)
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: latent)
        try graph.connect(latent, to: bus)
        try graph.connect(input, to: bus, gainDecibels: -6)
        try graph.connect(bus, to: output)
        let plan = try graph.compile(format: format)
        XCTAssertEqual(plan.latencyFrames, 100)
        XCTAssertEqual(plan.outputs[0].latencyFrames, 100)
        XCTAssertEqual(plan.nodes.first { $0.name == "bus" }?.outputLatencyFrames, 100)

        let out = PlanHarness(plan: plan).render(frames: 400) { _, _, frame in frame == 10 ? 0.5 : 0 }["out"]![0]
        // One impulse: 0.5 through the latent path plus 0.5 × -6 dB through the dry one, both at 10 + 100.
        XCTAssertEqual(nonZero(out), [110])
        XCTAssertEqual(out[110], 0.5 + 0.5 * Float(Decibels.toLinear(-6)), accuracy: 1e-7)
    }

    func testASpilloverFadeKeepsALatentTailFromDelayingWhatItFeeds() throws {
        // in → latent(100) → spillover fade → bus, in → bus at -6 dB: the fade's output counts as latency 0,
        // so the dry path is not delayed to meet the tail (which comes 100 frames later, at unity).
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let latent = try graph.addUnit("latent", DelayingUnit(latency: 100))
        let fade = try graph.addUnit("fade", SpilloverFadeUnit(seconds: 1))
        let bus = try graph.addMixer("bus", channels: 1)
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: latent)
        try graph.connect(latent, to: fade)
        try graph.connect(fade, to: bus)
        try graph.connect(input, to: bus, gainDecibels: -6)
        try graph.connect(bus, to: output)
        let plan = try graph.compile(format: format)
        XCTAssertEqual(plan.latencyFrames, 0)
        XCTAssertEqual(plan.outputs[0].latencyFrames, 0)

        let out = PlanHarness(plan: plan).render(frames: 400) { _, _, frame in frame == 10 ? 0.5 : 0 }["out"]![0]
        XCTAssertEqual(nonZero(out), [10, 110])
        XCTAssertEqual(out[10], 0.5 * Float(Decibels.toLinear(-6)), accuracy: 1e-7)
        XCTAssertEqual(out[110], 0.5, accuracy: 1e-7)
    }

    func testSerialLatenciesAddUp() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let first = try graph.addUnit("first", DelayingUnit(latency: 70))
        let second = try graph.addUnit("second", DelayingUnit(latency: 240))
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: first)
        try graph.connect(first, to: second)
        try graph.connect(second, to: output)
        let plan = try graph.compile(format: format)
        XCTAssertEqual(plan.latencyFrames, 310)
        XCTAssertEqual(plan.nodes.map(\.outputLatencyFrames), [0, 70, 310, 310])
        XCTAssertEqual(plan.nodes.map(\.latencyFrames), [0, 70, 240, 0])
    }

    func testBranchesOfDifferentLatencyAndOutputsAreAllAligned() throws {
        // in → a(30) → bus, in → b(200) → bus, in → dry output; a tap on `a`.
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let a = try graph.addUnit("a", DelayingUnit(latency: 30))
        let b = try graph.addUnit("b", DelayingUnit(latency: 200))
        let bus = try graph.addMixer("bus", channels: 1)
        let wet = try graph.addOutput("wet", channels: 1)
        let dry = try graph.addOutput("dry", channels: 1)
        try graph.connect(input, to: a)
        try graph.connect(input, to: b)
        try graph.connect(a, to: bus)
        try graph.connect(b, to: bus)
        try graph.connect(bus, to: wet)
        try graph.connect(input, to: dry)
        try graph.installTap(on: a, file: "/nonexistent/a.wav")
        let plan = try graph.compile(format: format)
        XCTAssertEqual(plan.latencyFrames, 200)
        XCTAssertEqual(plan.outputs.map(\.latencyFrames), [200, 200])

        plan.connectPorts()
        var wetOut: [Float] = [], dryOut: [Float] = [], tapOut: [Float] = []
        let source = plan.sources[0].channels[0]
        for block in 0..<8 {
            for frame in 0..<64 { source[frame] = block * 64 + frame == 5 ? 1 : 0 }
            plan.program.render(frames: 64)
            wetOut += UnsafeBufferPointer(start: plan.outputs[0].channels[0], count: 64)
            dryOut += UnsafeBufferPointer(start: plan.outputs[1].channels[0], count: 64)
            tapOut += UnsafeBufferPointer(start: plan.taps[0].channels[0], count: 64)
        }
        XCTAssertEqual(nonZero(wetOut), [205])
        XCTAssertEqual(wetOut[205], 2)
        XCTAssertEqual(nonZero(dryOut), [205])
        XCTAssertEqual(nonZero(tapOut), [205])
    }

    func testBypassingALatentPluginKeepsItsLatency() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let latent = try graph.addUnit("latent", DelayingUnit(latency: 90), bypass: true)
        let bus = try graph.addMixer("bus", channels: 1)
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: latent)
        try graph.connect(latent, to: bus)
        try graph.connect(input, to: bus)
        try graph.connect(bus, to: output)
        let plan = try graph.compile(format: format)
        let out = PlanHarness(plan: plan).render(frames: 300) { _, _, frame in frame == 0 ? 1 : 0 }["out"]![0]
        XCTAssertEqual(nonZero(out), [90])
        XCTAssertEqual(out[90], 2)
    }

    func testEngagingBypassMidStreamContinuesTheDelayedSignalWithoutAGap() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let latent = try graph.addUnit("latent", DelayingUnit(latency: 90))
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: latent)
        try graph.connect(latent, to: output)
        let plan = try graph.compile(format: format)
        let harness = PlanHarness(plan: plan)
        let first = harness.render(frames: 256) { _, _, frame in Float(frame + 1) }["out"]![0]
        plan.bypassFlag(of: "latent")!.pointee = 1
        let second = harness.render(frames: 256) { _, _, frame in Float(256 + frame + 1) }["out"]![0]
        // A ramp delayed by 90 frames, whether the plugin or the bypass plays it.
        XCTAssertEqual(first + second, (0..<512).map { $0 < 90 ? 0 : Float($0 - 90 + 1) })
    }

    /// A plan that replaces another (a live edit) carries its delay lines
    /// on: the output goes on exactly as if no edit had happened.
    func testARecompiledPlanContinuesTheDelayLinesOfThePlanItReplaces() throws {
        func makeGraph() throws -> AudioGraph {
            let graph = AudioGraph()
            let input = try graph.addInput("in", channels: 1)
            let latent = try graph.addUnit("latent", DelayingUnit(latency: 90))
            let bus = try graph.addMixer("bus", channels: 1)
            let output = try graph.addOutput("out", channels: 1)
            try graph.connect(input, to: latent)
            try graph.connect(latent, to: bus)
            try graph.connect(input, to: bus)    // delayed by 90 to meet the latent path
            try graph.connect(bus, to: output)
            return graph
        }
        let ramp: (Int, Int, Int) -> Float = { _, _, frame in Float(frame + 1) }
        let unedited = PlanHarness(plan: try makeGraph().compile(format: format)).render(frames: 512, signal: ramp)["out"]![0]

        let graph = try makeGraph()
        let first = try graph.compile(format: format)
        let before = PlanHarness(plan: first).render(frames: 256, signal: ramp)["out"]![0]
        let second = try graph.compile(format: format, continuing: first)
        let after = PlanHarness(plan: second).render(frames: 256) { _, _, frame in Float(256 + frame + 1) }["out"]![0]
        XCTAssertEqual(before + after, unedited)
        XCTAssertNotEqual(unedited[300], 0)
    }

    func testOfflineRenderStartsAtTheFirstInputSampleAndKeepsTheWholeLength() throws {
        let folder = try makeScratchFolder(prefix: "fxhost-latency")
        let inputPath = folder.appendingPathComponent("in.wav").path
        let outputPath = folder.appendingPathComponent("out.wav").path
        // 1000 frames: an impulse at 0 and the last sample at 999.
        var samples = [Float](repeating: 0, count: 1000)
        samples[0] = 0.5
        samples[999] = -0.25
        try writeMono(samples, to: inputPath)

        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let latent = try graph.addUnit("latent", DelayingUnit(latency: 150))
        let output = try graph.addOutput("out", channels: 1)
        try graph.connect(input, to: latent)
        try graph.connect(latent, to: output)
        let plan = try graph.compile(format: format)
        var options = RenderOptions()
        options.inputFiles = ["in": inputPath]
        options.outputFiles = ["out": RenderOutputFile(path: outputPath, format: try AudioFileFormat(path: outputPath))]
        options.maximumTailSeconds = 0
        let summary = try OfflineRenderer(plan: plan, options: options).run()
        XCTAssertEqual(summary.frames, 1000)
        XCTAssertEqual(summary.latencyFrames, 150)
        XCTAssertEqual(try readMono(outputPath), samples)
    }

    private func writeMono(_ samples: [Float], to path: String) throws {
        let writer = try AudioFileWriter(path: path, format: try AudioFileFormat(path: path), channels: 1,
                                         sampleRate: 48000, mode: .atomic)
        try samples.withUnsafeBufferPointer { buffer in
            let channels = [buffer.baseAddress!]
            try channels.withUnsafeBufferPointer { try writer.write(channels: $0, frames: samples.count) }
        }
        try writer.finish()
    }

    private func readMono(_ path: String) throws -> [Float] {
        let reader = try AudioFileReader(path: path)
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: reader.frames ?? 0)
        defer { buffer.deallocate() }
        let got = [buffer].withUnsafeBufferPointer { reader.read(into: $0, frames: reader.frames ?? 0) }
        return Array(UnsafeBufferPointer(start: buffer, count: got))
    }
}
