/// One step of a compiled plan. Payloads are plain pointers and numbers so the
/// realtime thread touches no Swift references. Gains and flags are read
/// through pointers so they can change while a plan runs without rebuilding it.
public enum RenderOp {
    /// Fill with silence.
    case clear(UnsafeMutablePointer<Float>)
    case copy(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>)
    /// `to = from × gain`.
    case copyScaled(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>, gain: UnsafePointer<Float>)
    /// `to += from`.
    case add(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>)
    /// `to += from × gain`.
    case addScaled(from: UnsafePointer<Float>, to: UnsafeMutablePointer<Float>, gain: UnsafePointer<Float>)
    /// A memory reset a kernel needs before its run.
    case reset(MemoryReset)
    /// A kernel's run() for the block.
    case run(handle: UnsafeMutableRawPointer?, function: KernelRunFunction)
    /// A kernel's after-run hook.
    case hook(KernelHook)
    /// Skip the next `count` ops when the flag is non-zero (bypass).
    case skipIfSet(flag: UnsafePointer<UInt8>, count: Int)
    /// Skip the next `count` ops when the flag is zero.
    case skipIfClear(flag: UnsafePointer<UInt8>, count: Int)
    /// `delay.process(buffer)`: a fixed delay, for latency compensation.
    case delay(UnsafeMutablePointer<DelayLine>, buffer: UnsafeMutablePointer<Float>)
}

/// A port connection the plan makes once, on the thread that runs it, before
/// its first block (connect_port belongs to LV2's audio class).
public struct PortConnection {
    public var handle: UnsafeMutableRawPointer?
    public var connect: KernelConnectFunction
    public var port: UInt32
    public var data: UnsafeMutableRawPointer?

    public init(handle: UnsafeMutableRawPointer?, connect: KernelConnectFunction, port: UInt32,
                data: UnsafeMutableRawPointer?) {
        self.handle = handle
        self.connect = connect
        self.port = port
        self.data = data
    }
}

/// A fixed delay of `length` frames on one channel, with its own preallocated
/// history. Processing is in place.
public struct DelayLine {
    public let length: Int
    @usableFromInline var history: UnsafeMutablePointer<Float>
    @usableFromInline var position: Int

    /// Allocates and zeroes the history (off the realtime thread).
    public init(length: Int) {
        self.length = length
        history = .allocate(capacity: max(length, 1))
        history.initialize(repeating: 0, count: max(length, 1))
        position = 0
    }

    public func deallocate() { history.deallocate() }

    /// Delays `frames` samples of `buffer` in place.
    @inlinable @_noLocks
    public mutating func process(_ buffer: UnsafeMutablePointer<Float>, frames: Int) {
        guard length > 0 else { return }
        for index in 0..<frames {
            let delayed = history[position]
            history[position] = buffer[index]
            buffer[index] = delayed
            position += 1
            if position == length { position = 0 }
        }
    }
}

/// One delay line's memory, shared by the plans that use it: a live edit's
/// new plan takes over the lines of the plan it replaces (same signal, same
/// length), so their history carries on and the edit makes no gap.
final class DelayLineBox {
    let line: UnsafeMutablePointer<DelayLine>

    init(length: Int) {
        line = .allocate(capacity: 1)
        line.initialize(to: DelayLine(length: length))
    }

    deinit {
        line.pointee.deallocate()
        line.deinitialize(count: 1)
        line.deallocate()
    }
}
