/// What a render did, for the closing summary and `--json`.
public struct RenderSummary: Sendable, Codable {
    public struct Output: Sendable, Codable {
        public var node: String
        public var file: String?
        /// Peak per channel, linear.
        public var peaks: [Float]
        public var peakDecibels: [Double] { peaks.map { Decibels.peak(fromLinear: Double($0)) } }
        /// A peak above full scale: clipped once written to an integer format, or by the listener's converter.
        public var clipped: Bool { peaks.contains { $0 > 1 } }
    }

    public struct Tap: Sendable, Codable {
        public var node: String
        public var file: String
        public var frames: Int
    }

    public var frames: Int
    public var sampleRate: Double
    public var elapsedSeconds: Double
    /// Latency compensated: frames dropped at the start and rendered on at the end.
    public var latencyFrames: Int
    public var outputs: [Output]
    public var taps: [Tap]

    public var durationSeconds: Double { Double(frames) / sampleRate }
    public var speed: Double { elapsedSeconds > 0 ? durationSeconds / elapsedSeconds : .infinity }
}
