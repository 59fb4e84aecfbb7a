import CSndFile
import Foundation
import Glibc

/// Reads any file libsndfile reads, as planar Float channels.
/// Not thread-safe: one reader belongs to one thread at a time.
package final class AudioFileReader {
    package let path: String
    package let channels: Int
    package let sampleRate: Int
    /// Length in frames, or nil when the file does not say (a FLAC stream
    /// whose writer was killed before it could rewrite its header).
    package let frames: Int?
    /// e.g. "WAV (Microsoft), 32 bit float".
    package let formatDescription: String

    private let file: OpaquePointer
    /// The descriptor `file` reads, closed after it.
    private let descriptor: Int32
    /// Interleaved frames read ahead of the caller, allocated once: a
    /// render asks for one block at a time, and libsndfile makes a read()
    /// call for every call made to it.
    private let scratch: UnsafeMutablePointer<Float>
    private let scratchFrames: Int
    // The frames of `scratch` not yet handed out: `bufferedStart..<bufferedEnd`.
    // Unchecked: one thread uses a reader, and neither is passed inout; the
    // runtime's exclusivity check would cost a call per access per block.
    @exclusivity(unchecked) private var bufferedStart = 0
    @exclusivity(unchecked) private var bufferedEnd = 0

    /// Opens `path`; throws a one-sentence error when it is missing,
    /// unreadable, not a regular file (a FIFO, a directory, a device: see
    /// `RegularFile`) or not audio.
    package init(path: String, blockFrames: Int = 4096) throws(AudioFileError) {
        let descriptor: Int32
        do {
            descriptor = try RegularFile.openForReading(path)
        } catch {
            throw AudioFileError(reading: error)
        }
        var info = SF_INFO()
        let file: OpaquePointer
        switch SndFileOpen.open(descriptor: descriptor, mode: Int32(SFM_READ), info: &info) {
        case .success(let opened): file = opened
        case .failure(let reason):
            Glibc.close(descriptor)
            throw .notAudio(path: path, reason: reason.text)
        }
        guard info.channels >= 1 else {
            sf_close(file)
            Glibc.close(descriptor)
            throw .notAudio(path: path, reason: "it has no channels")
        }
        self.path = path
        self.file = file
        self.descriptor = descriptor
        channels = Int(info.channels)
        sampleRate = Int(info.samplerate)
        frames = info.frames == Int64.max ? nil : Int(info.frames)
        formatDescription = Self.describe(format: info.format)
        scratchFrames = max(blockFrames, 1)
        scratch = .allocate(capacity: scratchFrames * channels)
    }

    deinit {
        sf_close(file)
        Glibc.close(descriptor)
        scratch.deallocate()
    }

    /// Duration in seconds, when the length is known.
    package var duration: Double? { frames.map { Double($0) / Double(sampleRate) } }

    /// Reads up to `frames` frames into planar buffers, one per channel, each
    /// with room for `frames` samples. Extra destination channels are filled
    /// with silence; file channels without a destination are skipped.
    /// Returns the frames read: 0 at the end of the file (or on a read error).
    /// The file is read ahead in chunks of `blockFrames`.
    package func read(into destination: UnsafeBufferPointer<UnsafeMutablePointer<Float>>, frames wanted: Int) -> Int {
        var done = 0
        while done < wanted {
            if bufferedStart == bufferedEnd {
                let got = Int(sf_readf_float(file, scratch, sf_count_t(scratchFrames)))
                if got <= 0 { break }
                bufferedStart = 0
                bufferedEnd = got
            }
            let chunk = min(wanted - done, bufferedEnd - bufferedStart)
            Interleaving.deinterleave(scratch + bufferedStart * channels, channels: channels, into: destination,
                                      at: done, frames: chunk)
            bufferedStart += chunk
            done += chunk
        }
        return done
    }

    /// Reads the next chunk now if fewer than `frames` are read ahead, so
    /// the next `read` of that many makes no read() call: for a moment when
    /// this thread has nothing else to do (while worker threads render a
    /// block, see `RenderJob`). What is read is what `read` would read.
    package func readAhead(atLeast frames: Int) {
        let buffered = bufferedEnd - bufferedStart
        guard buffered < frames, buffered < scratchFrames else { return }
        if bufferedStart > 0 && buffered > 0 {
            (scratch).update(from: scratch + bufferedStart * channels, count: buffered * channels)
        }
        bufferedStart = 0
        bufferedEnd = buffered
        let got = Int(sf_readf_float(file, scratch + buffered * channels, sf_count_t(scratchFrames - buffered)))
        if got > 0 { bufferedEnd += got }
    }

    /// Moves the read position to `frame` (from the start).
    /// Length in frames: the header's, or, when the header does not say (a
    /// FLAC whose writer was killed), counted by reading the whole file; the
    /// reader is then back at the start.
    package func lengthInFrames() throws(AudioFileError) -> Int {
        if let frames { return frames }
        try seek(toFrame: 0)
        var count = 0
        while true {
            let got = Int(sf_readf_float(file, scratch, sf_count_t(scratchFrames)))
            if got <= 0 { break }
            count += got
        }
        try seek(toFrame: 0)
        return count
    }

    package func seek(toFrame frame: Int) throws(AudioFileError) {
        // What was read ahead is from the old position.
        bufferedStart = 0
        bufferedEnd = 0
        guard sf_seek(file, sf_count_t(frame), SEEK_SET) == sf_count_t(frame) else {
            throw .seekFailed(path: path, frame: frame)
        }
    }

    /// "WAV (Microsoft), 32 bit float" from libsndfile's own names.
    private static func describe(format: Int32) -> String {
        func name(_ command: Int, _ code: Int32) -> String? {
            var info = SF_FORMAT_INFO(format: code, name: nil, extension: nil)
            guard sf_command(nil, Int32(command), &info, Int32(MemoryLayout<SF_FORMAT_INFO>.size)) == 0,
                  let text = info.name else { return nil }
            return String(cString: text)
        }
        let major = name(SFC_GET_FORMAT_INFO, format & Int32(SF_FORMAT_TYPEMASK))
        let subtype = name(SFC_GET_FORMAT_INFO, format & Int32(SF_FORMAT_SUBMASK))
        return [major, subtype].compactMap { $0 }.joined(separator: ", ")
    }
}
