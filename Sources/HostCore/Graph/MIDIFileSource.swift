/// A Standard MIDI File on the timeline, read whole when the graph is made.
public struct MIDIFileSource: Sendable, Equatable {
    /// Resolved path of the file.
    public var path: String
    /// Where it starts on the timeline, in seconds.
    public var startSeconds: Double
    /// Its events, by time.
    package var file: StandardMIDIFile

    /// Its length (to its last End of Track), in seconds.
    public var seconds: Double { file.seconds }

    package init(path: String, file: StandardMIDIFile, startSeconds: Double = 0) {
        self.path = path
        self.file = file
        self.startSeconds = startSeconds
    }

    /// Reads the file at `path`; an unreadable file is an error naming the byte where reading stopped.
    package init(path: String, startSeconds: Double = 0) throws(GraphError) {
        do {
            self.init(path: path, file: try StandardMIDIFile(path: path), startSeconds: startSeconds)
        } catch {
            throw GraphError(error.description)
        }
    }
}
