/// Called by: the realtime thread (a tap ring's producer, through
/// `SPSCFloatRing.write`; a live file feed's consumer, `LiveFeed.fill`) and
/// file readers and writers on other threads.
///
/// Planar channels to one interleaved buffer and back: what files and the
/// rings between the realtime thread and the disk hold.
///
/// Stereo, the common case, has loops of its own: with the stride a
/// constant the compiler vectorises them (four frames per step), while the
/// general loops, whose stride is only known at run time, go a sample at a
/// time. Both move the same samples to the same places.
package enum Interleaving {
    /// Writes `frames` frames of `source` (each channel read from `offset`)
    /// into `target`, `channels` samples per frame; channels `source` lacks
    /// are silence.
    @inlinable @_noLocks
    package static func interleave(_ source: UnsafeBufferPointer<UnsafePointer<Float>>, from offset: Int,
                                  into target: UnsafeMutablePointer<Float>, channels: Int, frames: Int) {
        if channels == 2 && source.count >= 2 {
            interleaveStereo(source[0] + offset, source[1] + offset, into: target, frames: frames)
            return
        }
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

    /// Writes `frames` frames of `source`, `channels` samples per frame, into
    /// `targets` (each channel written from `offset`); targets beyond
    /// `channels` get silence, channels beyond the targets are skipped.
    @inlinable @_noLocks
    package static func deinterleave(_ source: UnsafePointer<Float>, channels: Int,
                                    into targets: UnsafeBufferPointer<UnsafeMutablePointer<Float>>, at offset: Int,
                                    frames: Int) {
        if channels == 2 && targets.count == 2 {
            deinterleaveStereo(source, into: targets[0] + offset, targets[1] + offset, frames: frames)
            return
        }
        for (channel, buffer) in targets.enumerated() {
            let target = buffer + offset
            if channel < channels {
                var sample = source + channel
                for frame in 0..<frames {
                    target[frame] = sample.pointee
                    sample += channels
                }
            } else {
                target.update(repeating: 0, count: frames)
            }
        }
    }

    @inlinable @_noLocks
    static func interleaveStereo(_ left: UnsafePointer<Float>, _ right: UnsafePointer<Float>,
                                 into target: UnsafeMutablePointer<Float>, frames: Int) {
        for frame in 0..<frames {
            target[2 &* frame] = left[frame]
            target[2 &* frame &+ 1] = right[frame]
        }
    }

    @inlinable @_noLocks
    static func deinterleaveStereo(_ source: UnsafePointer<Float>, into left: UnsafeMutablePointer<Float>,
                                   _ right: UnsafeMutablePointer<Float>, frames: Int) {
        for frame in 0..<frames {
            left[frame] = source[2 &* frame]
            right[frame] = source[2 &* frame &+ 1]
        }
    }
}
