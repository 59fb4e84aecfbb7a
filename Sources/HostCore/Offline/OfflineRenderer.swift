import Foundation

/// The embedded offline driver: feeds a plan from files, renders it block by
/// block as fast as the plugins allow and writes its outputs and taps.
/// Outputs and taps are written under temporary names and renamed only when
/// the whole render succeeded.
public final class OfflineRenderer {
    public struct Options {
        /// Files for live input nodes, by node name.
        public var inputFiles: [String: String] = [:]
        /// Files for output nodes, by node name.
        public var outputFiles: [String: OutputFile] = [:]
        /// The longest tail after the sources end; the tail stops earlier once
        /// every output stays below -90 dBFS for half a second. 0: stop with the sources.
        public var maximumTailSeconds: Double = 10
        /// Called about ten times a second with the progress so far.
        public var progress: ((RenderProgress) -> Void)?

        public init() {}
    }

    public struct OutputFile {
        public var path: String
        public var format: AudioFileFormat

        public init(path: String, format: AudioFileFormat) {
            self.path = path
            self.format = format
        }
    }

    /// Below this, the tail counts as silence: -90 dBFS.
    public static let silenceThreshold = Float(Decibels.toLinear(-90))

    private let plan: RenderPlan
    private let options: Options
    private let feeds: [SourceFeed]
    private var writers: [(output: PlanOutput, writer: AudioFileWriter, channels: UnsafeMutableBufferPointer<UnsafePointer<Float>>)] = []
    private var recorders: [(tap: PlanTap, recorder: TapRecorder, channels: UnsafeMutableBufferPointer<UnsafePointer<Float>>)] = []
    private let sourceFrames: Int

    /// Opens every input and output; nothing is rendered yet.
    public init(plan: RenderPlan, options: Options) throws(RenderError) {
        self.plan = plan
        self.options = options
        let sampleRate = plan.format.sampleRate
        var feeds: [SourceFeed] = []
        for source in plan.sources {
            switch source.kind {
            case .file(let file):
                let start = Int((file.startSeconds * sampleRate).rounded())
                feeds.append(try SourceFeed(path: file.path, node: source.node, buffers: source.channels,
                                            startFrame: start, sampleRate: sampleRate))
            case .input:
                guard let path = options.inputFiles[source.node] else {
                    throw RenderError.missingInput(node: source.node)
                }
                feeds.append(try SourceFeed(path: path, node: source.node, buffers: source.channels,
                                            startFrame: 0, sampleRate: sampleRate))
            }
        }
        self.feeds = feeds
        sourceFrames = feeds.map(\.endFrame).max() ?? 0
        do {
            for output in plan.outputs {
                guard let file = options.outputFiles[output.node] else { continue }
                let writer = try AudioFileWriter(path: file.path, format: file.format, channels: output.channels.count,
                                                 sampleRate: Int(sampleRate), mode: .atomic)
                writers.append((output, writer, Self.channelList(output.channels)))
            }
            for tap in plan.taps {
                let format = try AudioFileFormat(path: tap.file)
                let recorder = try TapRecorder(path: tap.file, format: format, channels: tap.channels.count,
                                               sampleRate: Int(sampleRate), mode: .atomic, policy: .waitWhenFull)
                recorders.append((tap, recorder, Self.channelList(tap.channels)))
            }
        } catch {
            abort()
            throw RenderError.file(error)
        }
    }

    deinit {
        for writer in writers { writer.channels.deallocate() }
        for recorder in recorders { recorder.channels.deallocate() }
    }

    private static func channelList(_ channels: [UnsafeMutablePointer<Float>]) -> UnsafeMutableBufferPointer<UnsafePointer<Float>> {
        let list = UnsafeMutableBufferPointer<UnsafePointer<Float>>.allocate(capacity: channels.count)
        for (index, channel) in channels.enumerated() { list[index] = UnsafePointer(channel) }
        return list
    }

    /// Frames the sources span (longest source plus its start offset).
    public var contentFrames: Int { sourceFrames }

    /// Renders to the end (sources plus tail) and finishes every file.
    public func run() throws(RenderError) -> RenderSummary {
        let started = DispatchTime.now()
        let block = plan.format.maxBlockFrames
        let sampleRate = plan.format.sampleRate
        let tailLimit = Int((options.maximumTailSeconds * sampleRate).rounded())
        let silenceNeeded = Int(sampleRate / 2)
        var meters = plan.outputs.map { [PeakMeter](repeating: PeakMeter(), count: $0.channels.count) }
        var position = 0
        var quietFrames = 0
        var lastReport = started
        plan.connectPorts()
        do {
            for recorder in recorders { try recorder.recorder.start() }
            while true {
                let end = sourceFrames + tailLimit
                if position >= end { break }
                if position >= sourceFrames && quietFrames >= silenceNeeded { break }
                let frames = min(block, end - position)
                for feed in feeds { feed.fill(timelineFrame: position, frames: frames) }
                plan.program.render(frames: frames)
                var blockPeak: Float = 0
                for (outputIndex, output) in plan.outputs.enumerated() {
                    for (channel, buffer) in output.channels.enumerated() {
                        let peak = meters[outputIndex][channel].measure(buffer, frames: frames)
                        blockPeak = max(blockPeak, peak)
                    }
                }
                for writer in writers {
                    try writer.writer.write(channels: UnsafeBufferPointer(writer.channels), frames: frames)
                }
                for recorder in recorders {
                    _ = recorder.recorder.input.push(channels: UnsafeBufferPointer(recorder.channels), frames: frames)
                }
                position += frames
                if position > sourceFrames {
                    quietFrames = blockPeak < Self.silenceThreshold ? quietFrames + frames : 0
                }
                let now = DispatchTime.now()
                if let progress = options.progress, now.uptimeNanoseconds - lastReport.uptimeNanoseconds > 100_000_000 {
                    lastReport = now
                    progress(RenderProgress(framesDone: position, framesExpected: sourceFrames, sampleRate: sampleRate,
                                            elapsedSeconds: Self.seconds(since: started), inTail: position > sourceFrames))
                }
            }
            for writer in writers { try writer.writer.finish() }
            for recorder in recorders { try recorder.recorder.finish() }
        } catch {
            abort()
            throw RenderError.file(error)
        }
        let elapsed = Self.seconds(since: started)
        options.progress?(RenderProgress(framesDone: position, framesExpected: sourceFrames, sampleRate: sampleRate,
                                         elapsedSeconds: elapsed, inTail: false, finished: true))
        return RenderSummary(
            frames: position, sampleRate: sampleRate, elapsedSeconds: elapsed,
            outputs: plan.outputs.enumerated().map { index, output in
                RenderSummary.Output(node: output.node, file: options.outputFiles[output.node]?.path,
                                     peaks: meters[index].map(\.peak))
            },
            taps: recorders.map { RenderSummary.Tap(node: $0.tap.node, file: $0.tap.file,
                                                    frames: $0.recorder.framesWritten) })
    }

    /// Removes every partial file.
    private func abort() {
        for writer in writers { writer.writer.abort() }
        for recorder in recorders { recorder.recorder.abort() }
    }

    private static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}

/// Feeds one source node's buffers from a file placed on the timeline.
final class SourceFeed {
    let node: String
    let startFrame: Int
    let endFrame: Int
    private let reader: AudioFileReader
    private let buffers: [UnsafeMutablePointer<Float>]
    /// Destination pointers for one read, offset into the block.
    private let targets: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>

    init(path: String, node: String, buffers: [UnsafeMutablePointer<Float>], startFrame: Int,
         sampleRate: Double) throws(RenderError) {
        do {
            reader = try AudioFileReader(path: path)
        } catch {
            throw RenderError.file(error)
        }
        if Double(reader.sampleRate) != sampleRate {
            throw RenderError.sampleRateMismatch(path: path, fileRate: reader.sampleRate, renderRate: Int(sampleRate))
        }
        // A mono file feeds every channel; otherwise the counts must agree.
        guard reader.channels == buffers.count || reader.channels == 1 else {
            throw RenderError.channelMismatch(path: path, fileChannels: reader.channels, node: node,
                                              nodeChannels: buffers.count)
        }
        self.node = node
        self.buffers = buffers
        self.startFrame = startFrame
        endFrame = startFrame + (reader.frames ?? 0)
        targets = .allocate(capacity: reader.channels)
    }

    deinit { targets.deallocate() }

    /// Fills the block at `timelineFrame`: file samples where the file plays, silence elsewhere.
    func fill(timelineFrame: Int, frames: Int) {
        let from = max(timelineFrame, startFrame), to = min(timelineFrame + frames, endFrame)
        guard to > from else {
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
        var blockPeak: Float = 0
        for frame in 0..<frames { blockPeak = max(blockPeak, abs(buffer[frame])) }
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
    public var outputs: [Output]
    public var taps: [Tap]

    public var durationSeconds: Double { Double(frames) / sampleRate }
    public var speed: Double { elapsedSeconds > 0 ? durationSeconds / elapsedSeconds : .infinity }
}

/// Why an offline render could not run or finish.
public enum RenderError: Error, CustomStringConvertible {
    case file(AudioFileError)
    case missingInput(node: String)
    case sampleRateMismatch(path: String, fileRate: Int, renderRate: Int)
    case channelMismatch(path: String, fileChannels: Int, node: String, nodeChannels: Int)

    public var description: String {
        switch self {
        case .file(let error):
            return error.description
        case .missingInput(let node):
            return "the patch's live input `\(node)` has nothing to play: give it a file with `-i \(node)=FILE` (or `-i FILE` for the first input)"
        case .sampleRateMismatch(let path, let fileRate, let renderRate):
            return "`\(path)` is at \(fileRate) Hz but this render runs at \(renderRate) Hz; fxhost does not resample, so convert it first (e.g. `sox \(path) -r \(renderRate) converted.wav`)"
        case .channelMismatch(let path, let fileChannels, let node, let nodeChannels):
            return "`\(path)` has \(fileChannels) channels but `\(node)` takes \(nodeChannels)"
        }
    }
}
