/// A take a restarted engine goes on with instead of starting a new one
/// (a supervised run's engine died while it recorded): the tap declared
/// with `requestedFile` is declared with the take's own file instead, and
/// goes on at its end: published to the supervisor, which writes it (it
/// held the file open, or opens it again), or, with no shared region, opened again here.
public struct TakeContinuation: Codable, Sendable, Equatable {
    /// The file the tap asked for (absolute), and the take's own.
    public var requestedFile: String
    public var file: String
    /// The JACK frame time the file's first frame would have been played
    /// at had nothing been left out (its `startFrame`, plus frames dropped
    /// and skipped): the silence before the new frames makes up the rest.
    /// nil: the take's clock is unknown (it was paused, a bounce played
    /// meanwhile), so it goes on with no silence added.
    public var expectedFrameTime: Int?
    /// It was paused: it stays paused, and no silence is added.
    public var paused: Bool
    /// The supervisor holds the file open (any format); otherwise it opens
    /// a WAV or RF64 take again, if the engine finds it can be.
    public var heldBySupervisor: Bool

    public init(requestedFile: String, file: String, expectedFrameTime: Int?, paused: Bool, heldBySupervisor: Bool = false) {
        self.requestedFile = requestedFile
        self.file = file
        self.expectedFrameTime = expectedFrameTime
        self.paused = paused
        self.heldBySupervisor = heldBySupervisor
    }
}
