import XCTest
@testable import HostCore

/// Blocks shared with worker threads give the bits of the serial program.
/// Oracle: the same plan rendered on one thread (itself checked against
/// arithmetic by the compiler's tests), for random graphs wide enough to
/// have parallel branches, with stateful units, latency (delayed copies
/// shared between branches) and gains; more threads than cores, so the
/// threads interleave every way the scheduler finds; the owner's two ways of
/// waiting for the block's end (spinning live, sleeping offline) both.
final class ParallelRenderTests: XCTestCase {
    let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 32, mode: .offline)

    func testRandomGraphsRenderTheSameBitsOnAnyNumberOfThreads() throws {
        for seed in 1...12 {
            var generator = SplitMix64(seed: UInt64(seed))
            let serial = try render(makeGraph(&generator), threads: 1)
            for threads in [2, 3, 4] {
                var again = SplitMix64(seed: UInt64(seed))
                let parallel = try render(makeGraph(&again), threads: threads)
                XCTAssertNil(firstDifference(parallel, serial), "seed \(seed), \(threads) threads")
            }
        }
    }

    /// Four independent branches are four tasks and a join: the plan is cut
    /// where the graph branches, not node by node.
    func testFourBranchesMakeFiveTasks() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 1)
        let bus = try graph.addMixer("bus", channels: 1)
        for branch in 0..<4 {
            let first = try graph.addUnit("a\(branch)", ScalingUnit(gain: Float(branch + 1)))
            let second = try graph.addUnit("b\(branch)", DelayingUnit(latency: branch))
            try graph.connect(input, to: first)
            try graph.connect(first, to: second)
            try graph.connect(second, to: bus)
        }
        try graph.connect(bus, to: try graph.addOutput("out", channels: 1))
        let plan = try graph.compile(format: format)
        XCTAssertEqual(plan.program.taskCount, 5)
    }

    /// A chain has nothing to share out: one task, rendered serially.
    func testAChainIsRenderedSerially() throws {
        let graph = AudioGraph()
        var previous = try graph.addInput("in", channels: 2)
        for index in 0..<5 {
            let unit = try graph.addUnit("u\(index)", ScalingUnit(gain: 0.9))
            try graph.connect(previous, to: unit)
            previous = unit
        }
        try graph.connect(previous, to: try graph.addOutput("out", channels: 2))
        XCTAssertLessThan(try graph.compile(format: format).program.taskCount, 2)
    }

    /// Where two renders first differ ("out1 channel 1 frame 40: 0.5 vs 0.25"), or nil.
    private func firstDifference(_ rendered: [String: [[Float]]], _ expected: [String: [[Float]]]) -> String? {
        guard rendered.keys.sorted() == expected.keys.sorted() else { return "different outputs" }
        for (node, channels) in expected.sorted(by: { $0.key < $1.key }) {
            for (channel, samples) in channels.enumerated() {
                let other = rendered[node]![channel]
                guard other.count == samples.count else { return "\(node) channel \(channel + 1): length differs" }
                if let frame = samples.indices.first(where: { samples[$0].bitPattern != other[$0].bitPattern }) {
                    return "\(node) channel \(channel + 1) frame \(frame): \(other[frame]) vs \(samples[frame])"
                }
            }
        }
        return nil
    }

    private func render(_ graph: AudioGraph, threads: Int) throws -> [String: [[Float]]] {
        let plan = try graph.compile(format: format)
        let pool = try RenderWorkerPool(threads: threads, realtime: false)
        defer { pool.stop() }
        // Odd block lengths too: the last block of a render is short.
        // Three threads through the owner's waiting path, the others the realtime one.
        return PlanHarness(plan: plan).render(frames: 32 * 40 + 7, workers: threads > 1 ? pool.workers : nil,
                                              waiting: threads == 3) {
            source, channel, frame in sin(Float(frame * (source + 2) + channel * 7) * 0.01)
        }
    }

    /// Two inputs, then 10–16 nodes each fed by one to three earlier nodes
    /// (with gains), then two outputs fed by the last nodes.
    private func makeGraph(_ generator: inout SplitMix64) throws -> AudioGraph {
        let graph = AudioGraph()
        var nodes = [try graph.addInput("in1", channels: 1), try graph.addInput("in2", channels: 1)]
        let count = 10 + Int(generator.next() % 7)
        for index in 0..<count {
            let node: GraphNode
            switch generator.next() % 4 {
            case 0: node = try graph.addUnit("n\(index)", DelayingUnit(latency: Int(generator.next() % 40)))
            case 1: node = try graph.addGain("n\(index)", decibels: -Double(generator.next() % 12))
            case 2: node = try graph.addMixer("n\(index)", channels: 1)
            default: node = try graph.addUnit("n\(index)", ScalingUnit(gain: Float(generator.next() % 100) / 50, offset: 0.01))
            }
            let feeds = 1 + Int(generator.next() % 3)
            var sources = Set<Int>()
            for _ in 0..<feeds { sources.insert(Int(generator.next() % UInt64(nodes.count))) }
            for source in sources.sorted() {
                try graph.connect(nodes[source], to: node, gainDecibels: Double(generator.next() % 3) * -3)
            }
            nodes.append(node)
        }
        for output in 0..<2 {
            let sink = try graph.addOutput("out\(output)", channels: 1)
            try graph.connect(nodes[nodes.count - 1 - output], to: sink)
            try graph.connect(nodes[nodes.count - 3 - output], to: sink)
        }
        return graph
    }
}
