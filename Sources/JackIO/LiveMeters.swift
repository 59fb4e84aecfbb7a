import HostCore
import Synchronization

/// A live session's output meters: one peak cell per output channel, which
/// the realtime thread raises through each program's `LiveMeter`s, and the
/// readers that take them at their own pace (the status's, each meter
/// subscriber's). A class because programs point into its cells: they stay
/// where they are for the session's life, across programs and engines.
final class LiveMeters {
    /// Cell `i` meters output channel `i`.
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

    func addReader() -> OutputPeakReaders.Reader { readers.addReader() }

    func removeReader(_ reader: OutputPeakReaders.Reader) { readers.removeReader(reader) }

    /// Per output channel, linear, the peak since `reader` last looked.
    func take(_ reader: OutputPeakReaders.Reader) -> [Float] { readers.take(reader, from: peaks) }

    /// The status's peaks since its last look, and each channel's since the session started.
    func takeForStatus() -> (recent: [Float], maximum: [Float]) {
        let recent = readers.take(.status, from: peaks)
        return (recent, readers.maximum)
    }
}
