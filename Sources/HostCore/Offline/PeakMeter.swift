/// Peak level of one channel over a whole render.
struct PeakMeter {
    private(set) var peak: Float = 0

    /// Updates the peak and returns this block's.
    mutating func measure(_ buffer: UnsafePointer<Float>, frames: Int) -> Float {
        let blockPeak = PeakLevel.measure(buffer, frames: frames)
        peak = max(peak, blockPeak)
        return blockPeak
    }
}
