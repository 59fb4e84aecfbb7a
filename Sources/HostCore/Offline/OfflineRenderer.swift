import Foundation

/// The embedded offline driver: renders a `RenderSession` block by block
/// on the calling thread, as fast as the plugins allow.
public final class OfflineRenderer {
    private let session: RenderSession

    /// Opens every input and output; nothing is rendered yet.
    public init(plan: RenderPlan, options: RenderOptions) throws(RenderError) {
        session = try RenderSession(plan: plan, options: options)
    }

    /// Renders to the end (sources plus tail) and finishes every file. A
    /// SIGINT or SIGTERM stops it with every partial file removed.
    public func run() throws(RenderError) -> RenderSummary {
        let signals = StopSignals()
        defer { signals.restore() }
        try session.start()
        let block = session.plan.format.maxBlockFrames
        while !session.isFinished {
            if let signal = signals.caught {
                session.abort()
                throw .interrupted(signal: signal)
            }
            try session.renderNextBlock(maxFrames: block)
        }
        return try session.finish()
    }
}

/// Feeds one source node's buffers from a file placed on the timeline.
final class SourceFeed {
    let node: String
    let startFrame: Int
    let endFrame: Int
    /// nil: a live input with no file, which plays silence.
    private let reader: AudioFileReader?
    private let buffers: [UnsafeMutablePointer<Float>]
    /// Destination pointers for one read, offset into the block.
    private let targets: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>

    init(path: String, node: String, buffers: [UnsafeMutablePointer<Float>], startFrame: Int,
         sampleRate: Double) throws(RenderError) {
        let length: Int
        let reader: AudioFileReader
        do {
            reader = try AudioFileReader(path: path)
            length = try reader.lengthInFrames()
        } catch {
            throw RenderError.file(error)
        }
        self.reader = reader
        if Double(reader.sampleRate) != sampleRate {
            throw RenderError.sampleRate(SampleRateMismatch(path: path, fileRate: reader.sampleRate, rate: Int(sampleRate),
                                                            runner: "this render"))
        }
        // A mono file feeds every channel; otherwise the counts must agree.
        guard reader.channels == buffers.count || reader.channels == 1 else {
            throw RenderError.channelMismatch(path: path, fileChannels: reader.channels, node: node,
                                              nodeChannels: buffers.count)
        }
        self.node = node
        self.buffers = buffers
        self.startFrame = startFrame
        endFrame = startFrame + length
        targets = .allocate(capacity: reader.channels)
    }

    /// A live input that plays silence (a bounce of a live patch).
    init(silenceFor node: String, buffers: [UnsafeMutablePointer<Float>]) {
        self.node = node
        self.buffers = buffers
        reader = nil
        startFrame = 0
        endFrame = 0
        targets = .allocate(capacity: 0)
    }

    deinit { targets.deallocate() }

    /// Places the read position for a render that starts at `timelineFrame`
    /// (the file is read on from there, block by block).
    func seek(timelineFrame: Int) throws(RenderError) {
        let position = timelineFrame - startFrame
        guard let reader, position > 0 && timelineFrame < endFrame else { return }
        do {
            try reader.seek(toFrame: position)
        } catch {
            throw RenderError.file(error)
        }
    }

    /// Fills the block at `timelineFrame`: file samples where the file plays, silence elsewhere.
    func fill(timelineFrame: Int, frames: Int) {
        let from = max(timelineFrame, startFrame), to = min(timelineFrame + frames, endFrame)
        guard let reader, to > from else {
            // The whole block is before the file starts or after it ends.
            for buffer in buffers { buffer.update(repeating: 0, count: frames) }
            return
        }
        let offset = from - timelineFrame
        for channel in 0..<targets.count { targets[channel] = buffers[channel] + offset }
        let got = reader.read(into: UnsafeBufferPointer(targets), frames: to - from)
        for buffer in buffers.prefix(targets.count) {
            if offset > 0 { buffer.update(repeating: 0, count: offset) }
            let filled = offset + got
            if filled < frames { (buffer + filled).update(repeating: 0, count: frames - filled) }
        }
        // A mono file feeds every channel of its node.
        if targets.count == 1 {
            for buffer in buffers.dropFirst() { buffer.update(from: buffers[0], count: frames) }
        }
    }
}

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

public struct RenderProgress: Sendable {
    public var framesDone: Int
    /// Frames of source material; the tail comes after, of unknown length.
    public var framesExpected: Int
    public var sampleRate: Double
    public var elapsedSeconds: Double
    public var inTail: Bool
    public var finished = false

    /// Faster than realtime by this factor.
    public var speed: Double { elapsedSeconds > 0 ? Double(framesDone) / sampleRate / elapsedSeconds : 0 }
    /// Seconds left for the source material, from the speed so far.
    public var remainingSeconds: Double? {
        guard speed > 0, framesDone < framesExpected else { return nil }
        return Double(framesExpected - framesDone) / sampleRate / speed
    }
}

/// What a render did, for the closing summary and `--json`.
public struct RenderSummary: Sendable, Codable {
    public struct Output: Sendable, Codable {
        public var node: String
        public var file: String?
        /// Peak per channel, linear.
        public var peaks: [Float]
        public var peakDecibels: [Double] { peaks.map { Decibels.fromLinear(Double($0)) } }
        /// A peak above full scale: clipped once written to an integer format, or by the listener's converter.
        public var clipped: Bool { peaks.contains { $0 > 1 } }
    }

    public struct Tap: Sendable, Codable {
        public var node: String
        public var file: String
        public var frames: Int
    }

    public var frames: Int
    public var sampleRate: Double
    public var elapsedSeconds: Double
    /// Latency compensated: frames dropped at the start and rendered on at the end.
    public var latencyFrames: Int
    public var outputs: [Output]
    public var taps: [Tap]

    public var durationSeconds: Double { Double(frames) / sampleRate }
    public var speed: Double { elapsedSeconds > 0 ? durationSeconds / elapsedSeconds : .infinity }
}

/// Why an offline render could not run or finish.
public enum RenderError: Error, CustomStringConvertible {
    case file(AudioFileError)
    case missingInput(node: String)
    case sampleRate(SampleRateMismatch)
    case channelMismatch(path: String, fileChannels: Int, node: String, nodeChannels: Int)
    /// Two outputs or taps would write one file, or one would overwrite a file being played.
    case fileConflict(String)
    /// SIGINT or SIGTERM stopped the render; its partial files were removed.
    case interrupted(signal: Int32)
    /// A time range that selects nothing; the reason is a sentence's end.
    case invalidRange(String)

    public var description: String {
        switch self {
        case .file(let error):
            return error.description
        case .missingInput(let node):
            return "the patch's live input `\(node)` has nothing to play: give it a file with `-i \(node)=FILE` (or `-i FILE` for the first input)"
        case .sampleRate(let mismatch):
            return mismatch.description
        case .fileConflict(let message):
            return message
        case .interrupted(let signal):
            return "interrupted by \(signalName(signal)); no output was kept"
        case .invalidRange(let reason):
            return "that time range selects nothing to render: \(reason)"
        case .channelMismatch(let path, let fileChannels, let node, let nodeChannels):
            return "`\(path)` has \(fileChannels) channels but `\(node)` takes \(nodeChannels)"
        }
    }
}
