import HostCore
import Synchronization

/// Peak meters: one peak cell per channel, which the realtime thread raises
/// (the session's outputs through each program's `LiveMeter`s; a tap's
/// through its `LiveTap`), and the readers that take them at their own pace
/// (the status's, each meter subscriber's). A class because programs point
/// into its cells: they stay where they are while it lives, across programs
/// and engines, and a program's owner keeps a tap's after the tap ends.
///
/// In a supervised engine the cells lie in the supervisor's
/// `SharedMeterRegion`, and the supervisor alone takes them: here every
/// take reads silence and resets nothing.
final class LiveMeters {
    /// Cell `i` meters output channel `i`.
    let peaks: UnsafeMutablePointer<Atomic<UInt32>>
    private let cells: Int
    private var readers: OutputPeakReaders
    /// The supervisor's region the cells lie in, and the tap slot they are (nil: the output cells).
    private let shared: (region: SharedMeterRegion, slot: Int?)?

    init(channels: Int) {
        cells = max(channels, 1)
        peaks = .allocate(capacity: cells)
        for index in 0..<cells { (peaks + index).initialize(to: Atomic(0)) }
        readers = OutputPeakReaders(channels: channels)
        shared = nil
    }

    /// The output meters in `region`'s output cells; nil when they do not fit.
    init?(outputs channels: Int, in region: SharedMeterRegion) {
        guard let cells = region.outputPeaks(channels: channels) else { return nil }
        self.cells = channels
        peaks = cells
        readers = OutputPeakReaders(channels: channels)
        shared = (region, nil)
    }

    /// A tap's meters in a slot of `region`; nil when none is free or fits.
    init?(tap channels: Int, in region: SharedMeterRegion) {
        guard let slot = region.claimTapSlot(channels: channels) else { return nil }
        cells = channels
        peaks = region.tapPeaks(slot: slot)
        readers = OutputPeakReaders(channels: channels)
        shared = (region, slot)
    }

    deinit {
        if let shared {
            if let slot = shared.slot { shared.region.releaseTapSlot(slot) }
        } else {
            peaks.deinitialize(count: cells)
            peaks.deallocate()
        }
    }

    /// True when the supervisor takes these peaks.
    var isShared: Bool { shared != nil }
    /// The tap slot in the supervisor's region.
    var sharedSlot: Int? { shared?.slot }
    var channels: Int { cells }

    func addReader() -> OutputPeakReaders.Reader { readers.addReader() }

    func removeReader(_ reader: OutputPeakReaders.Reader) { readers.removeReader(reader) }

    /// Per channel, linear, the peak since `reader` last looked.
    func take(_ reader: OutputPeakReaders.Reader) -> [Float] {
        guard shared == nil else { return [Float](repeating: 0, count: cells) }
        return readers.take(reader, from: peaks)
    }

    /// `take`, for a reader that may be new to these meters (a tap started
    /// after it began reading): it gets silence once.
    func takeAdopting(_ reader: OutputPeakReaders.Reader) -> [Float] {
        readers.adopt(reader)
        return take(reader)
    }

    /// The status's peaks since its last look, and each channel's since the session started.
    func takeForStatus() -> (recent: [Float], maximum: [Float]) {
        let recent = take(.status)
        return (recent, readers.maximum)
    }
}
