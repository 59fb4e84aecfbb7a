import HostCore
import Synchronization

/// Peak meters: one peak cell per channel, which the realtime thread raises
/// (the session's outputs through each program's `LiveMeter`s; a tap's
/// through its `LiveTap`), and the readers that take them at their own pace
/// (the status's, each meter subscriber's). A class because programs point
/// into its cells: they stay where they are while it lives, across programs
/// and engines, and a program's owner keeps a tap's after the tap ends.
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

    /// Per channel, linear, the peak since `reader` last looked.
    func take(_ reader: OutputPeakReaders.Reader) -> [Float] { readers.take(reader, from: peaks) }

    /// `take`, for a reader that may be new to these meters (a tap started
    /// after it began reading): it gets silence once.
    func takeAdopting(_ reader: OutputPeakReaders.Reader) -> [Float] {
        readers.adopt(reader)
        return readers.take(reader, from: peaks)
    }

    /// The status's peaks since its last look, and each channel's since the session started.
    func takeForStatus() -> (recent: [Float], maximum: [Float]) {
        let recent = readers.take(.status, from: peaks)
        return (recent, readers.maximum)
    }
}
