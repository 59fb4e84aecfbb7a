/// Called by: the realtime thread (live output meters) and the offline
/// render thread (the render summary's peaks and its silence detection).
///
/// The one place a block's peak is measured, so live meters and a render's
/// summary agree on what a peak is.
package enum PeakLevel {
    /// The largest magnitude among `frames` samples; 0 for none. A NaN never
    /// wins (every comparison with it is false), so one bad sample does not
    /// hide the block's level.
    ///
    /// Sixteen lanes at a time: the compiler does not vectorise a scalar
    /// running maximum (a NaN makes it order-dependent), so the lanes keep
    /// sixteen running maxima with the same rule and are combined at the end.
    /// The result is the scalar loop's: the largest non-NaN magnitude, in
    /// any order.
    @inlinable @_noLocks
    package static func measure(_ samples: UnsafePointer<Float>, frames: Int) -> Float {
        let raw = UnsafeRawPointer(samples)
        let lanes = SIMD16<Float>.scalarCount
        var lanePeaks = SIMD16<Float>(repeating: 0)
        let vectorEnd = frames - frames % lanes
        var frame = 0
        while frame < vectorEnd {
            // Clearing the sign bit is `abs` for every Float, NaN included.
            let bits = raw.loadUnaligned(fromByteOffset: frame &* 4, as: SIMD16<UInt32>.self) & 0x7fff_ffff
            let magnitudes = unsafeBitCast(bits, to: SIMD16<Float>.self)
            lanePeaks.replace(with: magnitudes, where: magnitudes .> lanePeaks)
            frame &+= lanes
        }
        // The lanes hold no NaN, so they combine in any order: halves first.
        var eight = lanePeaks.lowHalf
        eight.replace(with: lanePeaks.highHalf, where: lanePeaks.highHalf .> eight)
        var four = eight.lowHalf
        four.replace(with: eight.highHalf, where: eight.highHalf .> four)
        var peak: Float = 0
        for lane in 0..<4 where four[lane] > peak { peak = four[lane] }
        while frame < frames {
            let magnitude = abs(samples[frame])
            if magnitude > peak { peak = magnitude }
            frame &+= 1
        }
        return peak
    }
}
