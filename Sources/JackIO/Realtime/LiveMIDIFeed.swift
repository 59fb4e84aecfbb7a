import HostCore

// Called by: the realtime thread (`fillMIDIInputs`, once per chunk of a
// cycle); made by `LivePlanOwner` on the control thread.

/// A `midi-file` node playing live: its playback (owned by the session's
/// `LiveMIDIFilePlayer`, so it carries on through new plans) and the list
/// it plays into.
package struct LiveMIDIFeed {
    package let playback: UnsafeMutablePointer<MIDIFilePlayback>
    package let list: UnsafeMutablePointer<MIDIEventList>
    package let clock: UnsafeMutablePointer<LiveSourceClock>

    /// The chunk's events, played at JACK frame time `frameTime` (-1:
    /// none); a resumed file first passes over what it would have played meanwhile.
    @_noLocks
    func fill(frames: Int, frameTime: Int) {
        if frameTime >= 0, clock.pointee.hasTask {
            let skipped = clock.pointee.framesToSkip(now: frameTime, position: playback.pointee.position, available: .max)
            if skipped > 0 { playback.pointee.skip(frames: skipped) }
        }
        playback.pointee.fillNext(list, frames: frames)
    }
}
