import HostCore

// Called by: the realtime thread (`fillMIDIInputs`, once per chunk of a
// cycle); made by `LivePlanOwner` on the control thread.

/// A `midi-file` node playing live: its playback (owned by the session's
/// `LiveMIDIFilePlayer`, so it carries on through new plans) and the list
/// it plays into.
package struct LiveMIDIFeed {
    package let playback: UnsafeMutablePointer<MIDIFilePlayback>
    package let list: UnsafeMutablePointer<MIDIEventList>
}
