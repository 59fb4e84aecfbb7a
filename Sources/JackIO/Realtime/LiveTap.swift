import HostCore

// Called by: the realtime thread (`push`, once per chunk of a cycle); the
// tap's writer thread drains the ring.

/// A tap as the callback sees it: after each chunk it pushes the tapped
/// buffers into the recorder's ring (dropping and counting when full),
/// unless the recorder is paused (`tap pause`): then the chunk is left out
/// of the take, which continues with the first chunk after `tap resume`.
/// Once its writer met a write error (a full disk) the take is over and
/// closed: nothing is pushed, and nothing counted as dropped.
package struct LiveTap {
    package var input: TapRecorder.Input
    package var channels: UnsafeBufferPointer<UnsafePointer<Float>>

    package init(input: TapRecorder.Input, channels: UnsafeBufferPointer<UnsafePointer<Float>>) {
        self.input = input
        self.channels = channels
    }

    @_noLocks
    func push(frames: Int) {
        guard !input.isPaused, !input.hasFailed else { return }
        _ = input.push(channels: channels, frames: frames)
    }
}
