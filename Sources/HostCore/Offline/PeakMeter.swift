/// A render's peak levels: each output channel's over the whole render (the
/// summary's), and each block's loudest sample among outputs and taps (the
/// tail's silence). The channels are a flat list of pointers made once, so
/// metering a block touches no array or class reference. The owner calls
/// `deallocate()` once, when the render is done with it.
struct PeakMeter {
    /// Every output's channels in order, then every tap's.
    private let channels: UnsafeMutableBufferPointer<UnsafePointer<Float>>
    /// One per output channel, in the same order.
    private let peaks: UnsafeMutableBufferPointer<Float>
    /// How many of `peaks` each output has.
    private let outputWidths: [Int]

    init(outputs: [[UnsafeMutablePointer<Float>]], taps: [[UnsafeMutablePointer<Float>]]) {
        let all = (outputs + taps).joined().map { UnsafePointer($0) }
        channels = .allocate(capacity: all.count)
        _ = channels.initialize(from: all)
        outputWidths = outputs.map(\.count)
        peaks = .allocate(capacity: outputWidths.reduce(0, +))
        peaks.initialize(repeating: 0)
    }

    /// Measures `frames` frames of every channel from `offset`, keeps the
    /// outputs' peaks when `keepingPeaks` and returns the block's: the
    /// largest over outputs and taps.
    func measure(from offset: Int, frames: Int, keepingPeaks: Bool = true) -> Float {
        var blockPeak: Float = 0
        for index in 0..<channels.count {
            let peak = PeakLevel.measure(channels[index] + offset, frames: frames)
            if keepingPeaks && index < peaks.count { peaks[index] = max(peaks[index], peak) }
            blockPeak = max(blockPeak, peak)
        }
        return blockPeak
    }

    /// The peak of each channel of output `index` so far.
    func peaks(ofOutput index: Int) -> [Float] {
        let start = outputWidths[..<index].reduce(0, +)
        return Array(peaks[start..<start + outputWidths[index]])
    }

    func deallocate() {
        channels.deallocate()
        peaks.deallocate()
    }
}
