import HostCore

/// A `midi-file` node's events, playing live from the moment the session
/// starts (its timeline position advances with every block rendered), kept
/// by the session so a new plan (an edit) plays on from where the last one
/// was. The realtime thread sees only its `playback` and `clock` pointers.
final class LiveMIDIFilePlayer {
    let playback: UnsafeMutablePointer<MIDIFilePlayback>
    /// Where it stands on the server's frame clock (a restart plays on from there).
    let clock: UnsafeMutablePointer<LiveSourceClock>
    let sampleRate: Double
    private let clockRegion: SharedTapRegion?

    /// `fromFrame`: where on the timeline it plays on from (a player
    /// replacing one at another rate). `resumingFrom`: the origin a crashed
    /// engine's player had: its first fill skips to where that puts it.
    /// `clockRegion`: a supervisor's region, where its clock lies under `node`.
    init(node: String, source: MIDIFileSource, sampleRate: Double, fromFrame: Int = 0, resumingFrom origin: Int? = nil,
         clockRegion: SharedTapRegion? = nil) {
        self.sampleRate = sampleRate
        self.clockRegion = clockRegion
        clock = LiveSourceClock.make(resumingFrom: origin, name: node, region: clockRegion)
        playback = .allocate(capacity: 1)
        playback.initialize(to: MIDIFilePlayback(file: source.file,
                                                 startFrame: Int((source.startSeconds * sampleRate).rounded()),
                                                 sampleRate: sampleRate))
        if fromFrame > 0 { playback.pointee.seek(timelineFrame: fromFrame) }
    }

    deinit {
        LiveSourceClock.free(clock, region: clockRegion)
        playback.pointee.deallocate()
        playback.deinitialize(count: 1)
        playback.deallocate()
    }
}
