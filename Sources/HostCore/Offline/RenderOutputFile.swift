/// An output node's file: where, and in which format.
public struct RenderOutputFile {
    public var path: String
    public var format: AudioFileFormat
    /// Whether the finished file may replace one already at `path` (a live
    /// `bounce` not forced: no, even one that appeared while it rendered).
    public var replacing: Bool

    public init(path: String, format: AudioFileFormat, replacing: Bool = true) {
        self.path = path
        self.format = format
        self.replacing = replacing
    }
}
