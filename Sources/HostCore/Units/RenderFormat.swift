/// Sample rate and block limits every unit in one plan shares.
public struct RenderFormat: Sendable, Equatable {
    public var sampleRate: Double
    /// The largest block `render` will be asked for.
    public var maxBlockFrames: Int
    public var mode: RenderMode

    public init(sampleRate: Double, maxBlockFrames: Int, mode: RenderMode) {
        self.sampleRate = sampleRate
        self.maxBlockFrames = maxBlockFrames
        self.mode = mode
    }
}

public enum RenderMode: Sendable, Equatable {
    /// Driven faster than realtime from files: the LV2 worker runs synchronously.
    case offline
    /// Driven by a realtime clock: the LV2 worker runs on its own thread.
    case live
}
