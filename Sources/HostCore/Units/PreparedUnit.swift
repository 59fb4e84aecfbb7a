/// A unit's instances for one format, as the compiler takes them.
public struct PreparedUnit {
    /// One kernel per instance, in channel order.
    public var kernels: [ProcessorKernel]
    /// Processing latency in frames, as the instances report it before their first block.
    public var latencyFrames: Int

    public init(kernels: [ProcessorKernel], latencyFrames: Int = 0) {
        self.kernels = kernels
        self.latencyFrames = latencyFrames
    }
}
