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

    /// Reads ahead now so that the next `fill` of `frames` makes no read()
    /// call (see `AudioFileReader.readAhead`).
    func readAhead(frames: Int) {
        reader?.readAhead(atLeast: frames)
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
        let filled = offset + got
        if offset > 0 || filled < frames {
            // Indices, not slices of `buffers`: this runs every block.
            for channel in 0..<targets.count {
                let buffer = buffers[channel]
                if offset > 0 { buffer.update(repeating: 0, count: offset) }
                if filled < frames { (buffer + filled).update(repeating: 0, count: frames - filled) }
            }
        }
        // A mono file feeds every channel of its node.
        if targets.count == 1 {
            for channel in 1..<max(buffers.count, 1) { buffers[channel].update(from: buffers[0], count: frames) }
        }
    }
}
