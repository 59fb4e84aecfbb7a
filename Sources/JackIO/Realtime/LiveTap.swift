import HostCore

// Called by: the realtime thread (`push`, once per chunk of a cycle); the
// tap's writer thread drains the ring.

/// A tap as the callback sees it: after each chunk it pushes the tapped
/// buffers into the recorder's ring (dropping and counting when full).
public struct LiveTap {
    public var input: TapRecorder.Input
    public var channels: UnsafeBufferPointer<UnsafePointer<Float>>

    public init(input: TapRecorder.Input, channels: UnsafeBufferPointer<UnsafePointer<Float>>) {
        self.input = input
        self.channels = channels
    }

    @_noLocks
    func push(frames: Int) {
        _ = input.push(channels: channels, frames: frames)
    }
}
