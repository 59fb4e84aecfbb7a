/// An output node's file: where, and in which format.
public struct RenderOutputFile {
    public var path: String
    public var format: AudioFileFormat

    public init(path: String, format: AudioFileFormat) {
        self.path = path
        self.format = format
    }
}
