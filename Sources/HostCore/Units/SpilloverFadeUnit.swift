import Glibc
import Synchronization

/// The gain a setlist's spillover puts on the old patch's outputs: unity,
/// then a linear fade to 0 over the last `fadeSeconds` (the whole spillover
/// when it is shorter), then 0 for good. Each instance counts the frames it
/// has run since it first ran, so the fade follows the audio, not a clock;
/// instances are kept across recompiles (`prepareInstances`), so an edit
/// during the spillover does not restart it. Mono: the compiler makes one
/// instance per channel, all started in the same block.
package final class SpilloverFadeUnit: ProcessingUnit {
    /// The fade at the end of a spillover: long enough to be no click, short enough to keep the tail.
    package static let fadeSeconds = 0.5

    private let seconds: Double
    private var instances: [SpilloverFadeInstance] = []
    private var instanceRate: Double?

    /// A spillover of `seconds` (more than 0).
    package init(seconds: Double) {
        self.seconds = seconds
    }

    package var displayName: String { "spillover fade" }
    package var inputPorts: [AudioPortInfo] { [AudioPortInfo(symbol: "in", name: "In")] }
    package var outputPorts: [AudioPortInfo] { [AudioPortInfo(symbol: "out", name: "Out")] }
    package var parameters: [ParameterInfo] { [] }
    /// A tail out of time on purpose: a latent spilled plugin must not delay the new patch while it rings, nor
    /// make the plan's latency (and so the output) jump when it goes.
    package var outputIgnoresLatency: Bool { true }

    package func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) {
        throw UnitError("`\(displayName)` has no parameter `\(symbol)`")
    }

    package func parameterValue(_ symbol: String) -> Float? { nil }

    package func applyPreset(_ name: String) throws(UnitError) {
        throw UnitError("`\(displayName)` has no presets")
    }

    /// The fade a cut spill gets (`cut`): short enough to free its nodes at once, long enough to be no click.
    package static let cutSeconds = 0.01

    /// Whether every instance made so far has played to the end of its fade
    /// (the spillover's, or a cut's), by the frames the audio thread has run.
    package var hasEnded: Bool {
        !instances.isEmpty && instances.allSatisfy(\.hasEnded)
    }

    /// Ends the spillover early: from the next block, a linear fade to 0
    /// over `cutSeconds` from the gain it has then (no step), then 0.
    package func cut() {
        for instance in instances { instance.requestCut() }
    }

    package func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit {
        if instanceRate != format.sampleRate {
            instances = []
            instanceRate = format.sampleRate
        }
        // Bounded before converting: a spillover is at most `Setlist.spilloverRange`'s end.
        let total = Int((min(max(seconds, 0), 3600) * format.sampleRate).rounded())
        let fade = max(1, min(total, Int((Self.fadeSeconds * format.sampleRate).rounded())))
        let cut = max(1, Int((Self.cutSeconds * format.sampleRate).rounded()))
        while instances.count < count {
            instances.append(SpilloverFadeInstance(endFrame: total, fadeFrames: fade, cutFrames: cut))
        }
        let kernels = instances.prefix(max(count, 0)).map { instance in
            ProcessorKernel(handle: UnsafeMutableRawPointer(instance.state), run: SpilloverFadeInstance.run,
                            connect: SpilloverFadeInstance.connect, inputPorts: [0], outputPorts: [1], owner: instance)
        }
        return PreparedUnit(kernels: Array(kernels))
    }
}

/// One channel of the fade: its ports and frame count in memory the
/// kernel's handle points at. `run` is realtime-safe. What the host reads
/// or asks while it runs is in atomics (relaxed: each is one value on its own).
final class SpilloverFadeInstance {
    struct State {
        var input: UnsafeMutablePointer<Float>?
        var output: UnsafeMutablePointer<Float>?
        /// Frames run so far (the audio thread's own copy).
        var played: Int
        /// The spillover's end: the gain is 0 from here on.
        var endFrame: Int
        var fadeFrames: Int
        var cutFrames: Int
        /// A cut's end once the audio thread took the cut, else `Int.max`.
        var cutEnd: Int
        /// `Counter`s, shared with the host.
        let counters: UnsafeMutablePointer<Atomic<Int>>
    }

    enum Counter {
        /// Frames run so far: one store a block.
        static let played = 0
        /// 1 once the host asked for a cut.
        static let cutAsked = 1
        /// The cut's end as the audio thread fixed it (`Int.max` before).
        static let cutEnd = 2
        static let count = 3
    }

    let state: UnsafeMutablePointer<State>
    private let counters: UnsafeMutablePointer<Atomic<Int>>

    init(endFrame: Int, fadeFrames: Int, cutFrames: Int) {
        counters = .allocate(capacity: Counter.count)
        (counters + Counter.played).initialize(to: Atomic(0))
        (counters + Counter.cutAsked).initialize(to: Atomic(0))
        (counters + Counter.cutEnd).initialize(to: Atomic(Int.max))
        state = .allocate(capacity: 1)
        state.initialize(to: State(input: nil, output: nil, played: 0, endFrame: endFrame, fadeFrames: fadeFrames,
                                   cutFrames: cutFrames, cutEnd: .max, counters: counters))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
        counters.deinitialize(count: Counter.count)
        counters.deallocate()
    }

    /// Played to the end of the spillover, or of a cut the audio thread has taken.
    var hasEnded: Bool {
        let played = counters[Counter.played].load(ordering: .relaxed)
        return played >= min(state.pointee.endFrame, counters[Counter.cutEnd].load(ordering: .relaxed))
    }

    func requestCut() {
        counters[Counter.cutAsked].store(1, ordering: .relaxed)
    }

    static let connect: KernelConnectFunction = { handle, port, data in
        guard let state = handle?.assumingMemoryBound(to: State.self) else { return }
        let buffer = data?.assumingMemoryBound(to: Float.self)
        if port == 0 { state.pointee.input = buffer } else { state.pointee.output = buffer }
    }

    /// Sample n of the spillover has gain (end − n) / fade, within 0…1: 1
    /// until the fade, 0 from the end; after a cut taken at frame c, at most
    /// (c + cut − n) / cut, so it falls from where it was to 0 in `cutFrames`.
    /// In place is fine: each sample is read before it is written.
    static let run: KernelRunFunction = { handle, frames in
        guard let state = handle?.assumingMemoryBound(to: State.self), let output = state.pointee.output else { return }
        let count = Int(frames)
        let start = state.pointee.played
        let counters = state.pointee.counters
        if state.pointee.cutEnd == .max, counters[Counter.cutAsked].load(ordering: .relaxed) != 0 {
            state.pointee.cutEnd = start + state.pointee.cutFrames
            counters[Counter.cutEnd].store(state.pointee.cutEnd, ordering: .relaxed)
        }
        let end = state.pointee.endFrame, cutEnd = state.pointee.cutEnd
        let fade = Float(state.pointee.fadeFrames), cut = Float(state.pointee.cutFrames)
        let played = min(start &+ count, Int.max / 2)
        defer {
            state.pointee.played = played
            counters[Counter.played].store(played, ordering: .relaxed)
        }
        guard let input = state.pointee.input, start < min(end, cutEnd) else {
            memset(output, 0, count * MemoryLayout<Float>.stride)
            return
        }
        for index in 0..<count {
            var gain = min(1, max(0, Float(end - (start + index)) / fade))
            if cutEnd != .max { gain = min(gain, max(0, Float(cutEnd - (start + index)) / cut)) }
            output[index] = input[index] * gain
        }
    }
}
