/// A live session's bounce on the control thread: the one under way, and
/// the frames the engine ran silent through bounces, which are not time
/// played (see `LiveSession+Bounce`).
struct LiveBounceState {
    private(set) var running: LiveBounce?
    /// The engine's frame count when `running` began.
    private var framesAtStart = 0
    /// Frames the engine ran (silent, freewheeling) through ended bounces.
    private(set) var silentFrames = 0

    mutating func begin(_ bounce: LiveBounce, engineFrames: Int) {
        running = bounce
        framesAtStart = engineFrames
    }

    /// Takes the bounce under way off the session, counting the frames the
    /// engine ran since it began as silent.
    mutating func end(engineFrames: Int) {
        guard running != nil else { return }
        running = nil
        silentFrames += max(engineFrames - framesAtStart, 0)
    }

    /// Stops the bounce under way and waits for it (the server leaves
    /// freewheel); for a session finishing or going away, whose time played
    /// no longer counts.
    mutating func abandon() {
        guard let bounce = running else { return }
        bounce.cancel()
        _ = bounce.waitForResult()
        running = nil
    }

    /// Edits wait for the bounce to end: its render stays as it began.
    func requireNone() throws(LiveSessionError) {
        if let running { throw .bouncing(files: running.files) }
    }

    var status: LiveStatus.Bounce? {
        guard let bounce = running else { return nil }
        let progress = bounce.progress
        let rate = bounce.sampleRate
        return LiveStatus.Bounce(files: bounce.files, startSeconds: bounce.startSeconds, endSeconds: bounce.endSeconds,
                                 secondsDone: Double(progress?.framesDone ?? 0) / rate,
                                 secondsExpected: Double(bounce.contentFrames) / rate,
                                 inTail: progress?.inTail ?? false, speed: progress?.speed ?? 0)
    }
}
