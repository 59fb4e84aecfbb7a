/// A sound file on the timeline. The graph knows its shape; the driver reads it.
public struct FilePlayerSource: Sendable, Equatable {
    /// Resolved path of the file.
    public var path: String
    public var channels: Int
    public var sampleRate: Double
    /// Length in frames.
    public var frames: Int
    /// Where it starts on the timeline, in seconds.
    public var startSeconds: Double
    public var gainDecibels: Double
    /// -1 … +1; nil: no panning (channels pass as they are).
    public var pan: Double?

    public init(path: String, channels: Int, sampleRate: Double, frames: Int, startSeconds: Double = 0,
                gainDecibels: Double = 0, pan: Double? = nil) {
        self.path = path
        self.channels = channels
        self.sampleRate = sampleRate
        self.frames = frames
        self.startSeconds = startSeconds
        self.gainDecibels = gainDecibels
        self.pan = pan
    }
}
