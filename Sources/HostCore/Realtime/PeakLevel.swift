/// Called by: the realtime thread (live output meters) and the offline
/// render thread (the render summary's peaks and its silence detection).
///
/// The one place a block's peak is measured, so live meters and a render's
/// summary agree on what a peak is.
package enum PeakLevel {
    /// The largest magnitude among `frames` samples; 0 for none. A NaN never
    /// wins (every comparison with it is false), so one bad sample does not
    /// hide the block's level.
    @inlinable @_noLocks
    package static func measure(_ samples: UnsafePointer<Float>, frames: Int) -> Float {
        var peak: Float = 0
        for frame in 0..<frames {
            let magnitude = abs(samples[frame])
            if magnitude > peak { peak = magnitude }
        }
        return peak
    }
}
