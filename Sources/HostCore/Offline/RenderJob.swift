import CCoreShim
import Foundation

/// One render to files, block by block: fills the sources, renders the
/// plan, meters and writes its outputs and taps, decides when the tail is
/// over and reports progress. A driver calls `start()`, then
/// `renderNextBlock` from one thread until `isFinished`, then `finish()`
/// (or `abort()`). The embedded driver loops on it; a JACK freewheel
/// process callback calls it once per cycle.
///
/// Latency: the plan's outputs and taps lag the sources by
/// `plan.latencyFrames`. The job drops that many frames at the start
/// and renders as many more at the end, so the first source sample is
/// output sample 0 and nothing is cut off.
///
/// Outputs and taps are written under temporary names and renamed only
/// when the whole render succeeded.
package final class RenderJob {
    /// Below this, the tail counts as silence: -90 dBFS.
    package static let silenceThreshold = Float(Decibels.toLinear(-90))

    package let plan: RenderPlan
    private let options: RenderOptions
    private let feeds: [SourceFeed]
    /// MIDI sources: a file's events placed on the timeline, per MIDI list.
    private let midiFeeds: [(playback: UnsafeMutablePointer<MIDIFilePlayback>, list: UnsafeMutablePointer<MIDIEventList>)]
    // Constants, as everything `write` reads per block: a class's `var` costs
    // a runtime exclusivity check at each access.
    private let writers: [(output: PlanOutput, writer: AudioFileWriter, channels: ChannelList)]
    private let recorders: [(tap: PlanTap, recorder: TapRecorder, channels: ChannelList)]
    /// Frames of the timeline to render before any tail: from the start to
    /// the end of the range, else to the end of the longest source.
    package let contentFrames: Int
    /// The timeline frame the render starts at.
    package let startFrame: Int
    private let tailLimit: Int
    private let silenceNeeded: Int

    // The counters below change every block. A class's `var` is checked for
    // exclusive access at run time on every access (a call of ~75
    // instructions, 4 of them per block), and that check guards nothing
    // here: a job is driven from one thread, and no counter is ever passed
    // inout. So they are unchecked.
    /// Frames rendered, counted at the plan's inputs.
    @exclusivity(unchecked) package private(set) var renderedFrames = 0
    /// Frames written to every output and tap.
    @exclusivity(unchecked) package private(set) var outputFrames = 0
    @exclusivity(unchecked) package private(set) var isFinished = false
    @exclusivity(unchecked) private var quietFrames = 0
    private let meter: PeakMeter
    private var portsConnected = false
    /// The musical position the plugins are told (`time:Position`): the
    /// options' tempo, rolling from the render's first timeline frame.
    @exclusivity(unchecked) private var transport: TransportClock
    /// Threads that share each block, when `options.threads` and the plan's
    /// branches allow more than one.
    private var workerPool: RenderWorkerPool?
    private var started: DispatchTime?
    /// Whether this process reports crashes (`CrashReport`): then the job
    /// registers its nodes and says where each block starts.
    private var reportsCrashes = false
    private var lastReport = DispatchTime.now()

    /// Opens every input and output; nothing is rendered yet.
    package init(plan: RenderPlan, options: RenderOptions) throws(RenderError) {
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
                    guard options.silentInputsWithoutFiles else { throw RenderError.missingInput(node: source.node) }
                    feeds.append(SourceFeed(silenceFor: source.node, buffers: source.channels))
                    continue
                }
                feeds.append(try SourceFeed(path: path, node: source.node, buffers: source.channels,
                                            startFrame: 0, sampleRate: sampleRate))
            }
        }
        self.feeds = feeds
        let midiFeeds = try Self.midiFeeds(plan: plan, options: options)
        self.midiFeeds = midiFeeds
        // A MIDI file counts towards the length like a sound file.
        // `deinit` frees the MIDI feeds' playbacks, but it does not run when
        // init throws: a refused range (a live `bounce --from` past the end,
        // as the soak sent) leaked a long MIDI file's events every time.
        func freeMIDIFeeds() {
            for feed in midiFeeds { feed.playback.pointee.deallocate(); feed.playback.deallocate() }
        }
        let sourcesEnd = (feeds.map(\.endFrame) + midiFeeds.map(\.playback.pointee.endFrame)).max() ?? 0
        do {
            (startFrame, contentFrames) = try Self.range(options, sourcesEnd: sourcesEnd, sampleRate: sampleRate)
            for feed in feeds { try feed.seek(timelineFrame: startFrame) }
            try Self.requireDistinctFiles(plan: plan, options: options)
        } catch {
            freeMIDIFeeds()
            throw error
        }
        for feed in midiFeeds { feed.playback.pointee.seek(timelineFrame: startFrame) }
        transport = TransportClock(tempo: options.tempo, sampleRate: sampleRate, frame: Int64(startFrame))
        tailLimit = options.endSeconds == nil ? Int((options.maximumTailSeconds * sampleRate).rounded()) : 0
        silenceNeeded = Int(sampleRate / 2)
        var writers: [(output: PlanOutput, writer: AudioFileWriter, channels: ChannelList)] = []
        var recorders: [(tap: PlanTap, recorder: TapRecorder, channels: ChannelList)] = []
        do {
            for output in plan.outputs {
                guard let file = options.outputFiles[output.node] else { continue }
                let writer = try AudioFileWriter(path: file.path, format: file.format, channels: output.channels.count,
                                                 sampleRate: Int(sampleRate), mode: .atomic, replacing: file.replacing)
                writers.append((output, writer, ChannelList(output.channels)))
            }
            for tap in plan.taps {
                let format = try AudioFileFormat(path: tap.file)
                let recorder = try TapRecorder(path: tap.file, format: format, channels: tap.channels.count,
                                               sampleRate: Int(sampleRate), mode: .atomic, policy: .waitWhenFull)
                recorders.append((tap, recorder, ChannelList(tap.channels)))
            }
        } catch {
            for writer in writers {
                writer.writer.abort()
                writer.channels.deallocate()
            }
            for recorder in recorders {
                recorder.recorder.abort()
                recorder.channels.deallocate()
            }
            freeMIDIFeeds()
            throw RenderError.file(error)
        }
        self.writers = writers
        self.recorders = recorders
        meter = PeakMeter(outputs: plan.outputs.map(\.channels), taps: plan.taps.map(\.channels))
        isFinished = contentFrames + tailLimit == 0
    }

    /// Each MIDI source's events on the timeline: a `midi-file` node's file
    /// from its `start`, a `midi-input` node's `-i` file from 0 (none: it
    /// plays nothing).
    private static func midiFeeds(plan: RenderPlan, options: RenderOptions) throws(RenderError)
        -> [(playback: UnsafeMutablePointer<MIDIFilePlayback>, list: UnsafeMutablePointer<MIDIEventList>)] {
        let sampleRate = plan.format.sampleRate
        var result: [(playback: UnsafeMutablePointer<MIDIFilePlayback>, list: UnsafeMutablePointer<MIDIEventList>)] = []
        for source in plan.midiSources {
            let file: StandardMIDIFile, start: Double
            switch source.kind {
            case .file(let player):
                (file, start) = (player.file, player.startSeconds)
            case .input:
                guard let path = options.inputFiles[source.node] else { continue }
                do {
                    file = try StandardMIDIFile(path: path)
                } catch {
                    for feed in result { feed.playback.pointee.deallocate(); feed.playback.deallocate() }
                    throw RenderError.midiFile(error)
                }
                start = 0
            }
            let playback = UnsafeMutablePointer<MIDIFilePlayback>.allocate(capacity: 1)
            playback.initialize(to: MIDIFilePlayback(file: file, startFrame: Int((start * sampleRate).rounded()),
                                                     sampleRate: sampleRate))
            result.append((playback, source.list))
        }
        return result
    }

    /// The start frame and the frames to render, checked: a range starts at
    /// 0 or later, ends after it starts, and a range with no end starts
    /// before the sources end.
    private static func range(_ options: RenderOptions, sourcesEnd: Int,
                              sampleRate: Double) throws(RenderError) -> (start: Int, frames: Int) {
        let start = options.startSeconds
        guard start.isFinite, start >= 0 else { throw .invalidRange("the start must be 0 s or later, not \(start) s") }
        // Bounded before any conversion: `Int(_:)` of a huge product traps.
        let longest = RenderOptions.longestRangeSeconds
        guard start <= longest else {
            throw .invalidRange("the start (\(NumberText.format(start)) s) is beyond \(NumberText.format(longest)) s (24 hours)")
        }
        let startFrame = Int((start * sampleRate).rounded())
        if let end = options.endSeconds {
            guard end.isFinite, end > start else {
                throw .invalidRange("the end (\(end) s) must come after the start (\(start) s)")
            }
            guard end <= longest else {
                throw .invalidRange("the end (\(NumberText.format(end)) s) is beyond \(NumberText.format(longest)) s (24 hours)")
            }
            return (startFrame, Int((end * sampleRate).rounded()) - startFrame)
        }
        guard startFrame == 0 || startFrame < sourcesEnd else {
            throw .invalidRange("the start (\(start) s) is at or after the end of the sources ("
                + String(format: "%.3f s", Double(sourcesEnd) / sampleRate) + ")")
        }
        return (startFrame, sourcesEnd - startFrame)
    }

    /// Outputs, taps and the files played: see `FileConflicts`.
    private static func requireDistinctFiles(plan: RenderPlan, options: RenderOptions) throws(RenderError) {
        var files = FileConflicts()
        files.outputs = plan.outputs.compactMap { output in options.outputFiles[output.node].map { (output.node, $0.path) } }
        files.taps = plan.taps.map { ($0.node, $0.file, nil) }
        for source in plan.sources {
            switch source.kind {
            case .file(let file):
                files.sources.append((source.node, file.path, false, nil))
            case .input:
                if let path = options.inputFiles[source.node] { files.sources.append((source.node, path, true, nil)) }
            }
        }
        for source in plan.midiSources {
            switch source.kind {
            case .file(let file):
                files.sources.append((source.node, file.path, false, nil))
            case .input:
                if let path = options.inputFiles[source.node] { files.sources.append((source.node, path, true, nil)) }
            }
        }
        if let conflict = files.first { throw .fileConflict(conflict.message) }
    }

    deinit {
        for writer in writers { writer.channels.deallocate() }
        for recorder in recorders { recorder.channels.deallocate() }
        meter.deallocate()
        for feed in midiFeeds {
            feed.playback.pointee.deallocate()
            feed.playback.deallocate()
        }
    }

    /// Starts the tap writers and the clock. Call once, before the first block.
    package func start() throws(RenderError) {
        do {
            for recorder in recorders { try recorder.recorder.start() }
        } catch {
            abort()
            throw RenderError.file(error)
        }
        let threads = min(options.threads, plan.program.tasks?.parallelWidth ?? 1)
        if threads > 1 {
            do {
                workerPool = try RenderWorkerPool(threads: threads, realtime: false)
            } catch {
                abort()
                throw RenderError.threads("\(error)")
            }
        }
        if CrashReport.isInstalled {
            reportsCrashes = true
            CrashReport.register(nodes: plan.nodes)
            CrashReport.beginRender(sampleRate: plan.format.sampleRate)
        }
        started = DispatchTime.now()
        lastReport = started!
    }

    /// Renders the next block of at most `maxFrames` (1…the plan's block
    /// size) and returns how many frames it rendered (0 once finished). The
    /// first call connects the plan's ports, so call it always from the same
    /// thread. On a write error the partial files are removed and it throws.
    @discardableResult
    package func renderNextBlock(maxFrames: Int) throws(RenderError) -> Int {
        guard !isFinished else { return 0 }
        if !portsConnected {
            plan.connectPorts()
            portsConnected = true
        }
        let latency = plan.latencyFrames
        let renderEnd = contentFrames + tailLimit + latency
        let frames = min(maxFrames, plan.format.maxBlockFrames, renderEnd - renderedFrames)
        for feed in feeds { feed.fill(timelineFrame: startFrame + renderedFrames, frames: frames) }
        for index in midiFeeds.indices {
            midiFeeds[index].playback.pointee.fill(midiFeeds[index].list, timelineFrame: startFrame + renderedFrames,
                                                   frames: frames)
        }
        plan.program.transport?.pointee = transport.position(advancingBy: frames)
        if reportsCrashes { fxhost_crash_set_frame(Int64(startFrame + renderedFrames)) }
        if let workerPool {
            // While the workers render, the reading and writing the next
            // blocks would wait for: the file I/O overlaps the render.
            var flushError: AudioFileError?
            workerPool.workers.renderWaiting(plan.program, frames: frames) {
                for feed in feeds { feed.readAhead(frames: plan.format.maxBlockFrames) }
                for index in writers.indices {
                    do throws(AudioFileError) { try writers[index].writer.flushIfFull() } catch { flushError = error }
                }
            }
            if let flushError {
                abort()
                throw .file(flushError)
            }
        } else {
            plan.program.render(frames: frames)
        }
        // The first `latency` frames come before the first source sample: drop them.
        let skip = min(max(latency - renderedFrames, 0), frames)
        let kept = frames - skip
        renderedFrames += frames
        if kept > 0 {
            try write(from: skip, frames: kept)
            outputFrames += kept
        }
        if outputFrames >= contentFrames + tailLimit || (outputFrames >= contentFrames && quietFrames >= silenceNeeded) {
            isFinished = true
        }
        reportProgress(finished: false)
        return frames
    }

    /// Meters and writes `frames` frames of every output and tap from `offset` in the plan's buffers.
    private func write(from offset: Int, frames: Int) throws(RenderError) {
        if let problem = nonFinite(from: offset, frames: frames) {
            abort()
            throw problem
        }
        // Taps count too: a patch may record only taps, and its tail is theirs.
        let inTail = outputFrames + frames > contentFrames
        let blockPeak = options.measuresPeaks || inTail
            ? meter.measure(from: offset, frames: frames, keepingPeaks: options.measuresPeaks) : 0
        // By index: `for x in array` copies each tuple, retaining what it holds.
        do {
            for index in writers.indices {
                try writers[index].writer.write(channels: writers[index].channels.pointers(from: offset), frames: frames)
            }
        } catch {
            abort()
            throw RenderError.file(error)
        }
        for index in recorders.indices {
            recorders[index].recorder.input.pushWaiting(channels: recorders[index].channels.pointers(from: offset),
                                                        frames: frames)
            // A tap's writer met a full disk: stop now rather than render the rest for nothing.
            if recorders[index].recorder.hasFailed, let failure = recorders[index].recorder.failure {
                abort()
                throw RenderError.file(failure)
            }
        }
        if inTail {
            quietFrames = blockPeak < Self.silenceThreshold ? quietFrames + frames : 0
        }
    }

    /// The first output or tap channel holding an infinite or NaN sample in
    /// this block, as the error that stops the render; nil when all are
    /// finite. Off the realtime thread (a render's own thread, or JACK's in
    /// freewheel), and without allocating unless it finds one. The plan's
    /// buffers are reused from node to node within a block, so the node that
    /// produced the value cannot be read back: the output (with what feeds
    /// it) or the tapped node is named.
    private func nonFinite(from offset: Int, frames: Int) -> RenderError? {
        // By index and through the preallocated pointer lists: nothing is
        // copied or retained per block; names are looked up only on a find.
        for index in writers.indices {
            let channels = writers[index].channels.pointers(from: offset)
            for number in channels.indices {
                guard let frame = Self.firstNonFinite(channels[number], frames: frames) else { continue }
                let output = writers[index].output
                let feeds = plan.nodes.first { $0.name == output.node }?.inputs.dropFirst(number).first ?? []
                let channelName = channels.count > 1 ? " channel \(number + 1)" : ""
                return nonFinite("output `\(output.node)`\(channelName)" + (feeds.isEmpty ? "" : " (fed by "
                    + feeds.map { "`\($0)`" }.joined(separator: ", ") + ")"), channels[number][frame], at: frame)
            }
        }
        for index in recorders.indices {
            let channels = recorders[index].channels.pointers(from: offset)
            for number in channels.indices {
                guard let frame = Self.firstNonFinite(channels[number], frames: frames) else { continue }
                let tap = recorders[index].tap
                let channelName = channels.count > 1 ? " channel \(number + 1)" : ""
                return nonFinite("the output of `\(tap.node)`\(channelName) (tapped to \(tap.file))",
                                 channels[number][frame], at: frame)
            }
        }
        return nil
    }

    /// The first of `frames` samples that is infinite or NaN.
    private static func firstNonFinite(_ samples: UnsafePointer<Float>, frames: Int) -> Int? {
        // x * 0 is 0 for every finite x and NaN for inf and NaN: one sum, no branch per sample.
        var probe: Float = 0
        for index in 0..<frames { probe += samples[index] * 0 }
        guard probe.isNaN else { return nil }
        return (0..<frames).first { !samples[$0].isFinite }
    }

    private func nonFinite(_ what: String, _ value: Float, at frame: Int) -> RenderError {
        let seconds = Double(startFrame + outputFrames + frame) / plan.format.sampleRate
        return .nonFinite(what: what, sample: value.isNaN ? "NaN" : value > 0 ? "inf" : "-inf", seconds: seconds)
    }

    private func reportProgress(finished: Bool) {
        guard let progress = options.progress, let started else { return }
        let now = DispatchTime.now()
        guard finished || now.uptimeNanoseconds - lastReport.uptimeNanoseconds > 100_000_000 else { return }
        lastReport = now
        progress(RenderProgress(framesDone: outputFrames, framesExpected: contentFrames,
                                sampleRate: plan.format.sampleRate, elapsedSeconds: Self.seconds(since: started),
                                inTail: !finished && outputFrames > contentFrames, finished: finished))
    }

    /// Finishes every file (after the last block) and sums the render up.
    package func finish() throws(RenderError) -> RenderSummary {
        stopWorkers()
        endCrashReport()
        // Close everything first and rename only when every file closed, so a
        // failure leaves no file that looks complete beside ones that are.
        do {
            for writer in writers { try writer.writer.close() }
            for recorder in recorders { try recorder.recorder.finish(commit: false) }
            for writer in writers { try writer.writer.commit() }
            for recorder in recorders { try recorder.recorder.commit() }
        } catch {
            abort()
            throw RenderError.file(error)
        }
        if CrashReport.isInstalled { CrashReport.outputsWritten() }
        let elapsed = started.map(Self.seconds(since:)) ?? 0
        reportProgress(finished: true)
        return RenderSummary(
            frames: outputFrames, sampleRate: plan.format.sampleRate, elapsedSeconds: elapsed,
            latencyFrames: plan.latencyFrames,
            outputs: plan.outputs.enumerated().map { index, output in
                RenderSummary.Output(node: output.node, file: options.outputFiles[output.node]?.path,
                                     peaks: options.measuresPeaks ? meter.peaks(ofOutput: index) : [])
            },
            taps: recorders.map { RenderSummary.Tap(node: $0.tap.node, file: $0.tap.file,
                                                    frames: $0.recorder.framesWritten) })
    }

    /// Removes every partial file. Safe to call more than once.
    package func abort() {
        isFinished = true
        stopWorkers()
        endCrashReport()
        for writer in writers { writer.writer.abort() }
        for recorder in recorders { recorder.recorder.abort() }
    }

    /// A crash from here on is outside the render: no time to say.
    private func endCrashReport() {
        guard reportsCrashes else { return }
        reportsCrashes = false
        CrashReport.endRender()
    }

    /// Joins the worker threads; the plan renders on one thread from here.
    private func stopWorkers() {
        workerPool?.stop()
        workerPool = nil
    }

    private static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}

/// A stream's channel pointers, and a second list to hand out the same
/// channels from an offset into the block.
struct ChannelList {
    private let base: UnsafeMutableBufferPointer<UnsafePointer<Float>>
    private let shifted: UnsafeMutableBufferPointer<UnsafePointer<Float>>

    init(_ channels: [UnsafeMutablePointer<Float>]) {
        base = .allocate(capacity: channels.count)
        shifted = .allocate(capacity: channels.count)
        for (index, channel) in channels.enumerated() {
            base[index] = UnsafePointer(channel)
            shifted[index] = UnsafePointer(channel)
        }
    }

    func pointers(from offset: Int) -> UnsafeBufferPointer<UnsafePointer<Float>> {
        if offset == 0 { return UnsafeBufferPointer(base) }
        for index in base.indices { shifted[index] = base[index] + offset }
        return UnsafeBufferPointer(shifted)
    }

    func deallocate() {
        base.deallocate()
        shifted.deallocate()
    }
}
