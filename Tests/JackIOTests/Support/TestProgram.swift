import HostCore
import JackIO

/// A stand-in for a plugin instance that outlives programs, as kept LV2
/// instances do: it doubles, in place, whatever buffer its port 0 is
/// connected to. If a new program's `connectPorts()` were skipped it would
/// keep doubling the old program's buffer and the new output would be wrong.
final class Doubler {
    let port = UnsafeMutablePointer<UnsafeMutablePointer<Float>?>.allocate(capacity: 1)
    init() { port.initialize(to: nil) }
    deinit { port.deallocate() }

    static let connect: KernelConnectFunction = { handle, index, data in
        guard index == 0 else { return }
        handle!.assumingMemoryBound(to: UnsafeMutablePointer<Float>?.self).pointee = data?.assumingMemoryBound(to: Float.self)
    }
    static let run: KernelRunFunction = { handle, frames in
        let buffer = handle!.assumingMemoryBound(to: UnsafeMutablePointer<Float>?.self).pointee!
        for frame in 0..<Int(frames) { buffer[frame] *= 2 }
    }
}

/// A hand-built program over one input and two outputs, owning its memory
/// the way a RenderPlan will. With a constant input x:
///   out1 = x × gain1 × (bypass ? 1 : 2 × gain2)    (the doubler runs unless bypassed)
///   out2 = x × gain3
/// and every block also bumps `hookCalls` through a hook op.
final class TestProgram {
    static let counterHook: KernelHookFunction = { context in
        context!.assumingMemoryBound(to: Int.self).pointee &+= 1
    }

    let blockFrames: Int
    let doubler: Doubler
    let input, scratch, out1, out2: UnsafeMutablePointer<Float>
    /// gain1, gain2, gain3.
    let gains = UnsafeMutablePointer<Float>.allocate(capacity: 3)
    let bypass = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
    let hookCalls = UnsafeMutablePointer<Int>.allocate(capacity: 1)
    private let ops: UnsafeMutableBufferPointer<RenderOp>
    private let connections: UnsafeMutableBufferPointer<PortConnection>

    init(blockFrames: Int, doubler: Doubler, gains: (Float, Float, Float), bypass: Bool) {
        self.blockFrames = blockFrames
        self.doubler = doubler
        func buffer() -> UnsafeMutablePointer<Float> {
            let memory = UnsafeMutablePointer<Float>.allocate(capacity: blockFrames)
            memory.initialize(repeating: 0, count: blockFrames)
            return memory
        }
        input = buffer()
        scratch = buffer()
        out1 = buffer()
        out2 = buffer()
        self.gains.initialize(to: gains.0)
        self.gains[1] = gains.1
        self.gains[2] = gains.2
        self.bypass.initialize(to: bypass ? 1 : 0)
        hookCalls.initialize(to: 0)
        let handle = UnsafeMutableRawPointer(doubler.port)
        ops = .allocate(capacity: 8)
        _ = ops.initialize(from: [
            .clear(out1),
            .copyScaled(from: input, to: scratch, gain: self.gains),
            .skipIfSet(flag: self.bypass, count: 2),
            .copyScaled(from: scratch, to: scratch, gain: self.gains + 1),
            .run(handle: handle, function: Doubler.run),
            .add(from: scratch, to: out1),
            .copyScaled(from: input, to: out2, gain: self.gains + 2),
            .hook(KernelHook(function: Self.counterHook, context: UnsafeMutableRawPointer(hookCalls))),
        ])
        connections = .allocate(capacity: 1)
        _ = connections.initialize(from: [PortConnection(handle: handle, connect: Doubler.connect, port: 0,
                                                         data: UnsafeMutableRawPointer(scratch))])
    }

    deinit {
        for memory in [input, scratch, out1, out2, gains] { memory.deallocate() }
        bypass.deallocate()
        hookCalls.deallocate()
        ops.deallocate()
        connections.deallocate()
    }

    /// What the engine runs; the program keeps this object alive.
    func live() -> LiveProgram {
        LiveProgram(program: RenderProgram(ops: UnsafeBufferPointer(ops), connections: UnsafeBufferPointer(connections),
                                           maxBlockFrames: blockFrames),
                    inputs: [input], outputs: [out1, out2], owner: LivePlanOwner(keeping: self))
    }

    var gain1: UnsafeMutablePointer<Float> { gains }
    var gain2: UnsafeMutablePointer<Float> { gains + 1 }
    var gain3: UnsafeMutablePointer<Float> { gains + 2 }
}
