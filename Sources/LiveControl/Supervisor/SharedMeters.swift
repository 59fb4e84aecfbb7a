import Glibc
import HostCore
import JackIO

/// The supervisor's side of its engines' peak meters: the shared region
/// their cells lie in (`SharedMeterRegion`, made once, passed to every
/// engine, kept across restarts), and the readers that take those cells.
/// In a supervised run this process alone exchanges the cells (the
/// status's reader, each front end's); an engine only raises them. So a
/// read is no round trip to the engine, and the maximum since the session
/// started, and each reader, survive a crash.
package final class SharedMeters {
    private let region: SharedMeterRegion?
    /// The region's descriptor, for the engine (nil: none could be made;
    /// meters are then asked of the engine over the link, as before).
    package let descriptor: Int32?
    private var outputs = OutputPeakReaders(channels: SharedMeterRegion.outputCells)
    /// Each tap slot's readers, made when the slot is first read.
    private var taps: [Int: OutputPeakReaders] = [:]
    /// The front ends' readers, adopted by each tap slot's readers as they are made.
    private var known: Set<OutputPeakReaders.Reader> = []

    package init() {
        if let (region, descriptor) = SharedMeterRegion.create() {
            self.region = region
            self.descriptor = descriptor
        } else {
            region = nil
            descriptor = nil
        }
    }

    /// The cells over `region` (a test's), with no descriptor.
    package init(testing region: SharedMeterRegion) {
        self.region = region
        descriptor = nil
    }

    deinit { if let descriptor { close(descriptor) } }

    /// The table the engine wrote; nil when its meters are not in shared
    /// memory (no region, or the engine could not lay them there).
    private var layout: [SharedMeterRegion.Entry]? { region?.layout }

    /// True when the engine's meters are read here rather than asked for.
    package var isActive: Bool { layout != nil }

    package func addReader(_ reader: OutputPeakReaders.Reader) {
        known.insert(reader)
        outputs.adopt(reader)
    }

    package func removeReader(_ reader: OutputPeakReaders.Reader) {
        known.remove(reader)
        outputs.removeReader(reader)
        for slot in taps.keys { taps[slot]!.removeReader(reader) }
    }

    /// Each output node's peak per channel in dBFS since `reader` last
    /// looked; nil when the meters are not here.
    package func meters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])]? {
        guard let region, let layout else { return nil }
        let recent = outputs.take(reader, from: region.allOutputPeaks)
        return layout.filter { $0.kind == .output }.map { entry in
            (entry.node, recent[entry.first..<entry.first + entry.channels].map { Decibels.peak(fromLinear: Double($0)) })
        }
    }

    /// Each tapped node's peak per channel in dBFS since `reader` last
    /// looked, by node; a node
    /// tapped twice shows the louder. nil when the meters are not here.
    package func tapMeters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])]? {
        guard let region, let layout else { return nil }
        var byNode: [String: [Float]] = [:]
        for entry in layout where entry.kind == .tap {
            var readers = taps[entry.first] ?? {
                var made = OutputPeakReaders(channels: SharedMeterRegion.tapSlotChannels)
                for known in known { made.adopt(known) }
                return made
            }()
            readers.adopt(reader)
            let taken = Array(readers.take(reader, from: region.tapPeaks(slot: entry.first)).prefix(entry.channels))
            taps[entry.first] = readers
            byNode[entry.node] = byNode[entry.node].map { zip($0, taken).map { max($0, $1) } } ?? taken
        }
        return byNode.sorted(by: { $0.key < $1.key }).map { node, peaks in
            (node, peaks.map { Decibels.peak(fromLinear: Double($0)) })
        }
    }

    /// Fills the status's output peaks (the engine's are silence: it takes
    /// none) from the status's own reader: those since its last look, and
    /// each channel's maximum since the run started. Left as they are when
    /// the meters are not here.
    package func amend(_ status: inout LiveStatus) {
        guard let region, let layout else { return }
        let recent = outputs.take(.status, from: region.allOutputPeaks)
        let cells = Dictionary(layout.filter { $0.kind == .output }.map { ($0.node, $0.first..<$0.first + $0.channels) },
                               uniquingKeysWith: { first, _ in first })
        for index in status.outputs.indices {
            guard let range = cells[status.outputs[index].node],
                  range.count == status.outputs[index].peakDecibels.count else { continue }
            status.outputs[index].peakDecibels = range.map { LiveStatus.decibels(recent[$0]) }
            status.outputs[index].maximumDecibels = range.map { LiveStatus.decibels(outputs.maximum[$0]) }
        }
    }
}
