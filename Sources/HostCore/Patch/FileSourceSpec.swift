package struct FileSourceSpec: Sendable, Equatable {
    /// Path as written; relative paths are relative to the patch file's folder.
    package var path: String
    package var pathLocation: SourceLocation?
    /// Where on the timeline the file starts, in seconds (`start: 1.5s`).
    package var startSeconds: Double
    package var gainDecibels: Double
    /// -1 (left) … 0 (centre) … +1 (right); applies to a mono file made stereo
    /// or balances a stereo one. nil: no panning stage.
    package var pan: Double?

    package init(path: String, pathLocation: SourceLocation? = nil, startSeconds: Double = 0,
                gainDecibels: Double = 0, pan: Double? = nil) {
        self.path = path
        self.pathLocation = pathLocation
        self.startSeconds = startSeconds
        self.gainDecibels = gainDecibels
        self.pan = pan
    }
}
