import HostCore
import Synchronization

// Called by: the realtime thread (`push`, once per chunk of a cycle); the
// tap's writer thread drains the ring.

/// A tap as the callback sees it: after each chunk it raises the tap's
/// peak cells (its `LiveMeters`, whether recording or not) and pushes the tapped
/// buffers into the recorder's ring (dropping and counting when full),
/// unless the recorder is paused (`tap pause`): then the chunk is left out
/// of the take, which continues with the first chunk after `tap resume`.
/// Once its writer met a write error (a full disk) the take is over and
/// closed: nothing is pushed, and nothing counted as dropped.
package struct LiveTap {
    package var input: TapRecorder.Input
    package var channels: UnsafeBufferPointer<UnsafePointer<Float>>
    /// One peak cell per channel (see `LiveMeter` for the bit pattern).
    package var peakBits: UnsafeMutablePointer<Atomic<UInt32>>

    package init(input: TapRecorder.Input, channels: UnsafeBufferPointer<UnsafePointer<Float>>,
                 peakBits: UnsafeMutablePointer<Atomic<UInt32>>) {
        self.input = input
        self.channels = channels
        self.peakBits = peakBits
    }

    /// `frameTime`: the JACK frame time the chunk plays at (-1: none). The
    /// take's first frame keeps it, and each chunk counts the cycles the
    /// server left out since the last, so a restarted engine continuing the
    /// take fills the gap exactly.
    @_noLocks
    func push(frames: Int, frameTime: Int) {
        for channel in 0..<channels.count {
            let peak = PeakLevel.measure(channels[channel], frames: frames)
            peakBits[channel].max(peak.bitPattern, ordering: .relaxed)
        }
        guard !input.hasFailed else { return }
        guard !input.isPaused else {
            // Paused time counts once the take has started: its frames lie between the file's.
            if !input.needsStartFrame {
                input.skip(frames: frames)
                if frameTime >= 0 { input.follow(frameTime: frameTime, frames: frames) }
            }
            return
        }
        if frameTime >= 0 {
            if input.needsStartFrame { input.setStartFrame(frameTime) }
            input.follow(frameTime: frameTime, frames: frames)
        }
        _ = input.push(channels: channels, frames: frames)
    }
}
