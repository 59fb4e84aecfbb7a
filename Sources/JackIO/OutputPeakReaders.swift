import Synchronization

/// Output (or a tap's) peaks for several readers, each at its own pace: the status line
/// five times a second, each OSC subscriber at the meter rate it asked for.
/// The realtime thread raises one atomic maximum per output channel; a
/// reader's `take` first collects those (resetting them) into every
/// reader's maximum, so no reader takes peaks from another. Control
/// thread only (the engine's, or in a supervised run the supervisor's:
/// see `SharedMeterRegion`).
package struct OutputPeakReaders {
    /// A reader of peaks since its previous `take`.
    package struct Reader: Hashable, Sendable, Codable {
        private let number: Int
        /// A reader named by another set of readers (a supervisor's, standing for an engine's).
        package init(number: Int) { self.number = number }
        /// `LiveSession.status()`'s, made with the readers.
        package static let status = Reader(number: 0)
    }

    private let channels: Int
    private var sinceTaken: [Reader: [Float]]
    private var readersMade = 0
    /// Per channel, since the session started.
    package private(set) var maximum: [Float]

    package init(channels: Int) {
        self.channels = channels
        sinceTaken = [.status: [Float](repeating: 0, count: channels)]
        maximum = [Float](repeating: 0, count: channels)
    }

    package mutating func addReader() -> Reader {
        readersMade += 1
        let reader = Reader(number: readersMade)
        sinceTaken[reader] = [Float](repeating: 0, count: channels)
        return reader
    }

    /// Adds a reader made by another set of readers (a tap's meter takes
    /// the output meters' readers); one known already is left as it is.
    package mutating func adopt(_ reader: Reader) {
        guard sinceTaken[reader] == nil else { return }
        sinceTaken[reader] = [Float](repeating: 0, count: channels)
    }

    package mutating func removeReader(_ reader: Reader) {
        guard reader != .status else { return }
        sinceTaken[reader] = nil
    }

    /// Per output channel, linear, the peak since `reader`'s previous take
    /// (an unknown reader gets zeros).
    package mutating func take(_ reader: Reader, from peaks: UnsafeMutablePointer<Atomic<UInt32>>) -> [Float] {
        for channel in 0..<channels {
            let peak = Float(bitPattern: peaks[channel].exchange(0, ordering: .relaxed))
            guard peak > 0 else { continue }
            maximum[channel] = max(maximum[channel], peak)
            for key in sinceTaken.keys { sinceTaken[key]![channel] = max(sinceTaken[key]![channel], peak) }
        }
        guard let taken = sinceTaken[reader] else { return [Float](repeating: 0, count: channels) }
        sinceTaken[reader] = [Float](repeating: 0, count: channels)
        return taken
    }
}
