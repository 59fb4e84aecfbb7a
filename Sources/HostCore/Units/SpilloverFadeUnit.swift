import Glibc

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

    package func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) {
        throw UnitError("`\(displayName)` has no parameter `\(symbol)`")
    }

    package func parameterValue(_ symbol: String) -> Float? { nil }

    package func applyPreset(_ name: String) throws(UnitError) {
        throw UnitError("`\(displayName)` has no presets")
    }

    /// Whether every instance made so far has reached the end of the spillover.
    package var hasEnded: Bool {
        !instances.isEmpty && instances.allSatisfy { $0.state.pointee.played >= $0.state.pointee.endFrame }
    }

    package func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit {
        if instanceRate != format.sampleRate {
            instances = []
            instanceRate = format.sampleRate
        }
        // Bounded before converting: a spillover is at most `Setlist.spilloverRange`'s end.
        let total = Int((min(max(seconds, 0), 3600) * format.sampleRate).rounded())
        let fade = max(1, min(total, Int((Self.fadeSeconds * format.sampleRate).rounded())))
        while instances.count < count { instances.append(SpilloverFadeInstance(endFrame: total, fadeFrames: fade)) }
        let kernels = instances.prefix(max(count, 0)).map { instance in
            ProcessorKernel(handle: UnsafeMutableRawPointer(instance.state), run: SpilloverFadeInstance.run,
                            connect: SpilloverFadeInstance.connect, inputPorts: [0], outputPorts: [1], owner: instance)
        }
        return PreparedUnit(kernels: Array(kernels))
    }
}

/// One channel of the fade: its ports and frame count in memory the
/// kernel's handle points at. `run` is realtime-safe.
final class SpilloverFadeInstance {
    struct State {
        var input: UnsafeMutablePointer<Float>?
        var output: UnsafeMutablePointer<Float>?
        /// Frames run so far.
        var played: Int
        /// The spillover's end: the gain is 0 from here on.
        var endFrame: Int
        var fadeFrames: Int
    }

    let state: UnsafeMutablePointer<State>

    init(endFrame: Int, fadeFrames: Int) {
        state = .allocate(capacity: 1)
        state.initialize(to: State(input: nil, output: nil, played: 0, endFrame: endFrame, fadeFrames: fadeFrames))
    }

    deinit {
        state.deinitialize(count: 1)
        state.deallocate()
    }

    static let connect: KernelConnectFunction = { handle, port, data in
        guard let state = handle?.assumingMemoryBound(to: State.self) else { return }
        let buffer = data?.assumingMemoryBound(to: Float.self)
        if port == 0 { state.pointee.input = buffer } else { state.pointee.output = buffer }
    }

    /// Sample n of the spillover has gain (end − n) / fade, within 0…1: 1
    /// until the fade, 0 from the end. In place is fine: each sample is read before it is written.
    static let run: KernelRunFunction = { handle, frames in
        guard let state = handle?.assumingMemoryBound(to: State.self), let output = state.pointee.output else { return }
        let count = Int(frames)
        let start = state.pointee.played, end = state.pointee.endFrame
        let fade = Float(state.pointee.fadeFrames)
        guard let input = state.pointee.input, start < end else {
            memset(output, 0, count * MemoryLayout<Float>.stride)
            state.pointee.played = min(start &+ count, Int.max / 2)
            return
        }
        for index in 0..<count {
            let gain = min(1, max(0, Float(end - (start + index)) / fade))
            output[index] = input[index] * gain
        }
        state.pointee.played = start + count
    }
}
