/// How far a render has come, for progress lines; `finished` on the last report.
public struct RenderProgress: Sendable {
    public var framesDone: Int
    /// Frames of source material; the tail comes after, of unknown length.
    public var framesExpected: Int
    public var sampleRate: Double
    public var elapsedSeconds: Double
    public var inTail: Bool
    public var finished = false

    /// Faster than realtime by this factor.
    public var speed: Double { elapsedSeconds > 0 ? Double(framesDone) / sampleRate / elapsedSeconds : 0 }
    /// Seconds left for the source material, from the speed so far.
    public var remainingSeconds: Double? {
        guard speed > 0, framesDone < framesExpected else { return nil }
        return Double(framesExpected - framesDone) / sampleRate / speed
    }
}
