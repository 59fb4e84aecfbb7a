import HostCore

/// A `midi-file` node's events, playing live from the moment the session
/// starts (its timeline position advances with every block rendered), kept
/// by the session so a new plan (an edit) plays on from where the last one
/// was. The realtime thread sees only its `playback` pointer.
final class LiveMIDIFilePlayer {
    let playback: UnsafeMutablePointer<MIDIFilePlayback>
    let sampleRate: Double

    /// `fromFrame`: where on the timeline it plays on from (a player
    /// replacing one at another rate).
    init(source: MIDIFileSource, sampleRate: Double, fromFrame: Int = 0) {
        self.sampleRate = sampleRate
        playback = .allocate(capacity: 1)
        playback.initialize(to: MIDIFilePlayback(file: source.file,
                                                 startFrame: Int((source.startSeconds * sampleRate).rounded()),
                                                 sampleRate: sampleRate))
        if fromFrame > 0 { playback.pointee.seek(timelineFrame: fromFrame) }
    }

    deinit {
        playback.pointee.deallocate()
        playback.deinitialize(count: 1)
        playback.deallocate()
    }
}
