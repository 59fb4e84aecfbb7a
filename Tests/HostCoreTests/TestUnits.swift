@testable import HostCore

/// A unit for compiler tests: `ports` inputs, each output k = input k × gain
/// (+ offset), through real C-convention run/connect functions, so the
/// compiled program drives it exactly as it drives an LV2 plugin.
final class ScalingUnit: ProcessingUnit {
    struct State {
        var inputs: (UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?) = (nil, nil)
        var outputs: (UnsafeMutablePointer<Float>?, UnsafeMutablePointer<Float>?) = (nil, nil)
        var gain: Float = 1
        var offset: Float = 0
        var runs = 0
    }

    let displayName: String
    let portCount: Int
    var gain: Float
    var offset: Float
    private(set) var states: [UnsafeMutablePointer<State>] = []

    init(name: String = "scale", ports: Int = 1, gain: Float = 2, offset: Float = 0) {
        displayName = name
        portCount = ports
        self.gain = gain
        self.offset = offset
    }

    deinit { states.forEach { $0.deallocate() } }

    var inputPorts: [AudioPortInfo] { (0..<portCount).map { AudioPortInfo(symbol: "in\($0 + 1)", name: "In \($0 + 1)") } }
    var outputPorts: [AudioPortInfo] { (0..<portCount).map { AudioPortInfo(symbol: "out\($0 + 1)", name: "Out \($0 + 1)") } }
    var parameters: [ParameterInfo] { [] }
    func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) { throw UnitError("no parameters") }
    func parameterValue(_ symbol: String) -> Float? { nil }
    func applyPreset(_ name: String) throws(UnitError) { throw UnitError("no presets") }

    func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit {
        while states.count < count {
            let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
            state.initialize(to: State(gain: gain, offset: offset))
            states.append(state)
        }
        let ports = (0..<UInt32(portCount)).map { $0 }
        let kernels = states.prefix(count).map { state in
            ProcessorKernel(handle: UnsafeMutableRawPointer(state), run: { handle, frames in
                let state = handle!.assumingMemoryBound(to: State.self)
                state.pointee.runs += 1
                let pairs = [(state.pointee.inputs.0, state.pointee.outputs.0), (state.pointee.inputs.1, state.pointee.outputs.1)]
                for (input, output) in pairs {
                    guard let input, let output else { continue }
                    for frame in 0..<Int(frames) { output[frame] = input[frame] * state.pointee.gain + state.pointee.offset }
                }
            }, connect: { handle, port, data in
                let state = handle!.assumingMemoryBound(to: State.self)
                let buffer = data?.assumingMemoryBound(to: Float.self)
                switch port {
                case 0: state.pointee.inputs.0 = buffer
                case 1: state.pointee.inputs.1 = buffer
                case 2: state.pointee.outputs.0 = buffer
                default: state.pointee.outputs.1 = buffer
                }
            }, inputPorts: ports, outputPorts: ports.map { $0 + 2 })
        }
        return PreparedUnit(kernels: kernels)
    }
}

/// Drives a plan with fixed source signals and collects its outputs.
struct PlanHarness {
    let plan: RenderPlan

    /// Renders `frames` in blocks; `signal(source, channel, frame)` feeds
    /// sources. `workers`: share each block with worker threads (`waiting`:
    /// through the owner's path that may sleep, as offline renders do).
    func render(frames: Int, block: Int? = nil, workers: RenderWorkers? = nil, waiting: Bool = false,
                signal: (Int, Int, Int) -> Float) -> [String: [[Float]]] {
        let block = block ?? plan.format.maxBlockFrames
        plan.connectPorts()
        var collected: [String: [[Float]]] = [:]
        for output in plan.outputs { collected[output.node] = Array(repeating: [], count: output.channels.count) }
        var position = 0
        while position < frames {
            let count = min(block, frames - position)
            for (sourceIndex, source) in plan.sources.enumerated() {
                for (channel, buffer) in source.channels.enumerated() {
                    for frame in 0..<count { buffer[frame] = signal(sourceIndex, channel, position + frame) }
                }
            }
            if let workers {
                if waiting { workers.renderWaiting(plan.program, frames: count) } else { workers.render(plan.program, frames: count) }
            } else {
                plan.program.render(frames: count)
            }
            for output in plan.outputs {
                for (channel, buffer) in output.channels.enumerated() {
                    collected[output.node]![channel] += UnsafeBufferPointer(start: buffer, count: count)
                }
            }
            position += count
        }
        return collected
    }
}
