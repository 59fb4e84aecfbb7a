/// Called by: the realtime thread (a tap ring's producer, through
/// `SPSCFloatRing.write`) and file writers on other threads.
///
/// Planar channels to one interleaved buffer: what a file write and a tap
/// ring both need.
package enum Interleaving {
    /// Writes `frames` frames of `source` (each channel read from `offset`)
    /// into `target`, `channels` samples per frame; channels `source` lacks
    /// are silence.
    @inlinable @_noLocks
    package static func interleave(_ source: UnsafeBufferPointer<UnsafePointer<Float>>, from offset: Int,
                                  into target: UnsafeMutablePointer<Float>, channels: Int, frames: Int) {
        for channel in 0..<channels {
            var sample = target + channel
            if channel < source.count {
                let input = source[channel] + offset
                for frame in 0..<frames {
                    sample.pointee = input[frame]
                    sample += channels
                }
            } else {
                for _ in 0..<frames {
                    sample.pointee = 0
                    sample += channels
                }
            }
        }
    }
}
