import Synchronization

/// A tap's peak meter: one atomic peak cell per tapped channel, raised by
/// the realtime thread at every push (`LiveTap`), and the readers that take
/// them at their own pace (the same readers as the output meters'). A
/// class because programs point into its cells: they stay where they are
/// while the tap lasts, and the program's owner keeps them after.
final class LiveTapMeter {
    /// Cell `i` meters the tap's channel `i`.
    let peaks: UnsafeMutablePointer<Atomic<UInt32>>
    private let cells: Int
    private var readers: OutputPeakReaders

    init(channels: Int) {
        cells = max(channels, 1)
        peaks = .allocate(capacity: cells)
        for index in 0..<cells { (peaks + index).initialize(to: Atomic(0)) }
        readers = OutputPeakReaders(channels: channels)
    }

    deinit {
        peaks.deinitialize(count: cells)
        peaks.deallocate()
    }

    /// Per channel, linear, the peak since `reader` last looked; a reader
    /// new to this tap (tapped after it started reading) gets silence once.
    func take(_ reader: OutputPeakReaders.Reader) -> [Float] {
        readers.adopt(reader)
        return readers.take(reader, from: peaks)
    }

    func removeReader(_ reader: OutputPeakReaders.Reader) { readers.removeReader(reader) }
}
