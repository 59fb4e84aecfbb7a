import CCoreShim
import CSndFile
import Foundation
import Glibc

/// Writes planar or interleaved Float audio to a file in one of
/// `AudioFileFormat`'s formats. Not thread-safe: one thread owns a writer.
package final class AudioFileWriter {
    /// How the file comes into existence.
    package enum Mode: Sendable {
        /// Writes `.NAME.partial` beside the target; `finish()` renames it into
        /// place, so a failed render never leaves a file that looks complete.
        case atomic
        /// Writes the final name directly and keeps the header current, so a
        /// killed process leaves a file that opens (for live takes).
        case recording
    }

    /// The final path.
    package let path: String
    package let format: AudioFileFormat
    package let channels: Int
    package let sampleRate: Int
    package let mode: Mode
    /// Where the samples go until `finish()` (differs from `path` in atomic mode).
    let writingPath: String
    /// Frames given to libsndfile (planar writes in atomic mode are gathered
    /// first: all are counted after `close()`). Unchecked: written every
    /// block by the one thread that owns the writer, never passed inout; the
    /// runtime's exclusivity check would cost a call per block and guard nothing.
    @exclusivity(unchecked) package private(set) var framesWritten = 0

    private var file: OpaquePointer?
    /// The descriptor `file` writes, closed right after it.
    private let descriptor: Int32
    /// Whether `commit` may rename over a file at `path`.
    private let replacing: Bool
    /// Closed in atomic mode but not yet renamed into place.
    private var awaitingCommit = false
    /// Interleaving scratch, allocated once.
    private let scratch: UnsafeMutablePointer<Float>
    /// Frames of planar writes interleaved into `scratch` but not yet given
    /// to libsndfile. In atomic mode they are gathered up to `blockFrames`
    /// (libsndfile makes a write() call for every call made to it, and a
    /// render writes one block at a time); `close()` writes the rest.
    /// Recording mode writes at once, so a killed process loses nothing
    /// gathered. Unchecked like `framesWritten`.
    @exclusivity(unchecked) private var pendingFrames = 0
    /// Integer formats: samples already rounded and clipped, left-justified
    /// in 32 bits as sf_writef_int expects.
    private let integerScratch: UnsafeMutablePointer<Int32>?
    private let scratchFrames: Int
    /// The partial file's slot among those a crash removes (`CrashReport`); -1: none.
    private var crashSlot: Int32 = -1

    /// Creates the file (the temporary one in atomic mode), replacing any
    /// regular file already there. Throws for a format that cannot take the
    /// layout, for a path that cannot be created, and for a path (or, in
    /// atomic mode, a final path) that names a FIFO, a device, a socket or a
    /// directory, which is refused before it is opened (see `RegularFile`).
    ///
    /// With `newTake` (recording mode, for live takes) nothing already there
    /// is opened: the file is created new, at `path` or at the next numbered
    /// name (`RegularFile.createNewTake`), and `path` is the one created.
    ///
    /// Without `replacing` (atomic mode), `commit` never replaces a file
    /// that appeared at `path` while it wrote: it fails and leaves the
    /// rendered file under its temporary name, nothing lost.
    ///
    /// With `emptyTake` (recording mode: a supervisor writing a take its
    /// engine created) the file at `path` must be that one, still empty:
    /// its device and inode as given, and no bytes. Nothing else is opened.
    package init(path requestedPath: String, format: AudioFileFormat, channels: Int, sampleRate: Int,
                mode: Mode = .atomic, blockFrames: Int = 4096, newTake: Bool = false,
                replacing: Bool = true, emptyTake: (device: UInt64, inode: UInt64)? = nil) throws(AudioFileError) {
        try format.validate(channels: channels, sampleRate: sampleRate)
        var path = requestedPath
        let writingPath: String
        let descriptor: Int32
        do {
            if emptyTake != nil, mode == .recording {
                descriptor = try RegularFile.openExistingForWriting(path)
                writingPath = path
            } else if newTake && mode == .recording {
                (descriptor, path) = try RegularFile.createNewTake(requestedPath)
                writingPath = path
            } else {
                writingPath = mode == .atomic ? Self.partialPath(for: path) : path
                // In atomic mode the file is renamed over `path` at the end.
                if mode == .atomic { try RegularFile.requireReplaceable(path) }
                descriptor = try RegularFile.openForWriting(writingPath, truncate: true)
            }
        } catch {
            throw AudioFileError(writing: error, path: requestedPath)
        }
        if let emptyTake, mode == .recording {
            var identity = stat()
            guard fstat(descriptor, &identity) == 0, UInt64(identity.st_dev) == emptyTake.device,
                  UInt64(identity.st_ino) == emptyTake.inode, identity.st_size == 0 else {
                Glibc.close(descriptor)
                throw .cannotCreate(path: path, reason: "it is no longer the empty take the engine created")
            }
        }
        var info = SF_INFO(frames: 0, samplerate: Int32(sampleRate), channels: Int32(channels),
                           format: format.sndfileFormat, sections: 0, seekable: 0)
        let file: OpaquePointer
        switch SndFileOpen.open(descriptor: descriptor, mode: Int32(SFM_WRITE), info: &info) {
        case .success(let opened): file = opened
        case .failure(let reason):
            Glibc.close(descriptor)
            if mode == .atomic { unlink(writingPath) }
            throw .cannotCreate(path: path, reason: reason.text)
        }
        self.descriptor = descriptor
        if mode == .recording { Self.keepReadableIfKilled(file, format: format) }
        self.path = path
        self.format = format
        self.channels = channels
        self.sampleRate = sampleRate
        self.mode = mode
        self.writingPath = writingPath
        self.replacing = replacing
        self.file = file
        scratchFrames = max(blockFrames, 1)
        scratch = .allocate(capacity: scratchFrames * channels)
        integerScratch = format.bitDepth == nil ? nil : .allocate(capacity: scratchFrames * channels)
        if mode == .atomic { crashSlot = fxhost_crash_register_file(writingPath) }
    }

    /// Opens the take at `path` (recording mode) to write on after its
    /// last frame: a restarted engine continuing a take its predecessor
    /// wrote. Only formats libsndfile opens for reading and writing (WAV,
    /// RF64) and whose channels and rate match; `framesWritten` starts at
    /// the frames the file holds.
    package init(continuing path: String, channels: Int, sampleRate: Int, blockFrames: Int = 4096) throws(AudioFileError) {
        let format = try AudioFileFormat(path: path)
        guard [.wavFloat, .wav16, .wav24, .rf64].contains(format) else {
            throw .cannotCreate(path: path, reason: "only a WAV or RF64 take can be continued")
        }
        let descriptor: Int32
        do {
            descriptor = try RegularFile.openForContinuing(path)
        } catch {
            throw AudioFileError(writing: error, path: path)
        }
        var info = SF_INFO()
        let file: OpaquePointer
        switch SndFileOpen.open(descriptor: descriptor, mode: Int32(SFM_RDWR), info: &info) {
        case .success(let opened): file = opened
        case .failure(let reason):
            Glibc.close(descriptor)
            throw .cannotCreate(path: path, reason: reason.text)
        }
        guard Int(info.channels) == channels, Int(info.samplerate) == sampleRate else {
            sf_close(file)
            Glibc.close(descriptor)
            throw .cannotCreate(path: path, reason: "it holds \(info.channels) channels at \(info.samplerate) Hz, not \(channels) at \(sampleRate)")
        }
        guard sf_seek(file, 0, SEEK_END | Int32(SFM_WRITE)) >= 0 else {
            sf_close(file)
            Glibc.close(descriptor)
            throw .cannotCreate(path: path, reason: "its end could not be found to write on")
        }
        self.descriptor = descriptor
        Self.keepReadableIfKilled(file, format: format)
        self.path = path
        self.format = format
        self.channels = channels
        self.sampleRate = sampleRate
        mode = .recording
        writingPath = path
        replacing = false
        self.file = file
        framesWritten = Int(info.frames)
        scratchFrames = max(blockFrames, 1)
        scratch = .allocate(capacity: scratchFrames * channels)
        integerScratch = format.bitDepth == nil ? nil : .allocate(capacity: scratchFrames * channels)
    }

    deinit {
        if file != nil { abort() }
        dropCrashSlot()
        scratch.deallocate()
        integerScratch?.deallocate()
    }

    /// Settings that let a file whose writer is killed (SIGKILL, power cut)
    /// open with all but its last second at most. Found by killing a writer
    /// after 3 s of audio with libsndfile 1.2.0 and reading the result:
    /// - WAV/RF64: the header would claim no data; rewrite it after every write.
    /// - FLAC: needs nothing. The header says "length unknown" and the stream
    ///   reads to its last whole block (2.99 s of 3).
    /// - Ogg Vorbis: needs nothing (2.3 to 2.7 s of 3 over several runs). SFC_UPDATE_HEADER_NOW must
    ///   not be used: it left a file that read as empty.
    /// - Ogg Opus: pages are flushed every second by default (1.97 s of 3);
    ///   250 ms pages give 2.83 s.
    /// - MP3: a VBR file's header is only completed at close, and a killed
    ///   one read as 0.99 s of 3; constant bitrate reads 2.95 s.
    private static func keepReadableIfKilled(_ file: OpaquePointer, format: AudioFileFormat) {
        switch format {
        case .wavFloat, .wav16, .wav24, .rf64:
            sf_command(file, Int32(SFC_SET_UPDATE_HEADER_AUTO), nil, 1)
        case .oggOpus:
            var milliseconds = 250.0
            sf_command(file, Int32(SFC_SET_OGG_PAGE_LATENCY_MS), &milliseconds, Int32(MemoryLayout<Double>.size))
        case .mp3:
            var bitrateMode = Int32(SF_BITRATE_MODE_CONSTANT)
            sf_command(file, Int32(SFC_SET_BITRATE_MODE), &bitrateMode, Int32(MemoryLayout<Int32>.size))
        case .flac16, .flac24, .oggVorbis:
            break
        }
    }

    /// `dir/.name.partial` for `dir/name`.
    package static func partialPath(for path: String) -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent().path
        return directory + "/." + url.lastPathComponent + ".partial"
    }

    /// Writes `frames` frames from planar buffers, one per channel (in
    /// atomic mode they may reach the file only at a later write or `close()`).
    package func write(channels source: UnsafeBufferPointer<UnsafePointer<Float>>, frames: Int) throws(AudioFileError) {
        guard let file else { throw .closed(path: path) }
        var done = 0
        while done < frames {
            // A full gather buffer goes out when room is needed (or earlier, through `flushIfFull`).
            if pendingFrames == scratchFrames { try writePending(file) }
            let chunk = min(frames - done, scratchFrames - pendingFrames)
            Interleaving.interleave(source, from: done, into: scratch + pendingFrames * channels, channels: channels,
                                    frames: chunk)
            pendingFrames += chunk
            done += chunk
            if mode == .recording { try writePending(file) }
        }
    }

    /// Gives libsndfile a full gather buffer now rather than at the next
    /// write: for a moment when this thread has nothing else to do (while
    /// worker threads render the next block, see `RenderJob`).
    package func flushIfFull() throws(AudioFileError) {
        guard let file, pendingFrames == scratchFrames else { return }
        try writePending(file)
    }

    /// Gives libsndfile the frames gathered in `scratch`.
    private func writePending(_ file: OpaquePointer) throws(AudioFileError) {
        let frames = pendingFrames
        pendingFrames = 0
        try write(file, scratch, frames: frames)
    }

    /// Writes `frames` interleaved frames (`channels` samples each).
    package func write(interleaved source: UnsafePointer<Float>, frames: Int) throws(AudioFileError) {
        guard let file else { throw .closed(path: path) }
        if pendingFrames > 0 { try writePending(file) }
        var done = 0
        while done < frames {
            let chunk = min(frames - done, scratchFrames)
            try write(file, source + done * channels, frames: chunk)
            done += chunk
        }
    }

    /// Writes at most `scratchFrames` interleaved frames.
    private func write(_ file: OpaquePointer, _ samples: UnsafePointer<Float>, frames: Int) throws(AudioFileError) {
        guard frames > 0 else { return }
        let written: Int
        if let integerScratch, let bits = format.bitDepth {
            // libsndfile 1.2.0's own float→PCM conversion is off by up to a
            // step for WAV (it floors when clipping and scales by 2^(n-1)-1
            // otherwise), so round and clip here: x × 2^(n-1), to nearest,
            // into [-2^(n-1), 2^(n-1)-1]. Out-of-range input clips, never wraps.
            let scale = Float(1 << (bits - 1))
            let top = scale - 1
            let shift = Int32(32 - bits)
            for index in 0..<frames * channels {
                let value = min(max((samples[index] * scale).rounded(), -scale), top)
                integerScratch[index] = Int32(value.isNaN ? 0 : value) << shift
            }
            written = Int(sf_writef_int(file, integerScratch, sf_count_t(frames)))
        } else {
            written = Int(sf_writef_float(file, samples, sf_count_t(frames)))
        }
        framesWritten += max(written, 0)
        if written != frames {
            let reason = SndFileReason(SndFileOpen.reason(file)).whenWriting
            throw .writeFailed(path: path, reason: reason.isEmpty ? "short write" : reason)
        }
    }

    /// Closes the file and, in atomic mode, moves it into place.
    package func finish() throws(AudioFileError) {
        try close()
        try commit()
    }

    /// Syncs and closes the file. In atomic mode it stays under its
    /// temporary name until `commit`, so several files can be closed first
    /// and renamed only when all of them closed.
    package func close() throws(AudioFileError) {
        guard let file else { throw .closed(path: path) }
        self.file = nil
        if pendingFrames > 0 {
            do {
                try writePending(file)
            } catch {
                closeFile(file)
                if mode == .atomic { unlink(writingPath) }
                throw error
            }
        }
        sf_write_sync(file)
        let status = closeFile(file)
        guard status == 0 else {
            if mode == .atomic { unlink(writingPath) }
            throw .finishFailed(path: path, reason: SndFileReason(String(cString: sf_error_number(status))).text)
        }
        awaitingCommit = mode == .atomic
    }

    /// In atomic mode, renames the closed file into place.
    package func commit() throws(AudioFileError) {
        guard awaitingCommit else { return }
        awaitingCommit = false
        dropCrashSlot()
        if !replacing {
            let code = RegularFile.renameWithoutReplacing(writingPath, to: path)
            guard code != 0 else { return }
            guard code == EEXIST else {
                let reason = String(cString: strerror(code))
                unlink(writingPath)
                throw .finishFailed(path: path, reason: reason)
            }
            throw .finishFailed(path: path, reason: "a file appeared there while it was written, and is left alone; "
                                + "what was rendered is kept as `\(writingPath)`")
        }
        if rename(writingPath, path) != 0 {
            let reason = String(cString: strerror(errno))
            unlink(writingPath)
            throw .finishFailed(path: path, reason: reason)
        }
    }

    /// After a write failed: recording mode keeps the take, cut back to its
    /// last whole frame (a write stopped by a full disk or a size limit ends
    /// inside one) and closed, so libsndfile writes the header for what it
    /// holds and the file opens; atomic mode removes the partial file. A
    /// format that cannot seek (FLAC, Ogg, MP3) is not cut: it reads to its
    /// last whole block.
    package func closeAfterFailure() {
        guard mode == .recording, let file else { return abort() }
        pendingFrames = 0
        self.file = nil
        var frames = sf_count_t(framesWritten)
        sf_command(file, Int32(SFC_FILE_TRUNCATE), &frames, Int32(MemoryLayout<sf_count_t>.size))
        closeFile(file)
    }

    /// Closes the file without finishing it: atomic mode removes the partial
    /// file; recording mode keeps what was recorded (a take is worth keeping).
    package func abort() {
        if awaitingCommit {
            awaitingCommit = false
            unlink(writingPath)
        }
        pendingFrames = 0
        guard let file else { return }
        self.file = nil
        closeFile(file)
        if mode == .atomic { unlink(writingPath) }
        dropCrashSlot()
    }

    /// The partial file is renamed or removed: a crash leaves it alone.
    private func dropCrashSlot() {
        fxhost_crash_drop_file(crashSlot)
        crashSlot = -1
    }

    /// `sf_close`, then the descriptor it wrote; returns `sf_close`'s status.
    @discardableResult
    private func closeFile(_ file: OpaquePointer) -> Int32 {
        let status = sf_close(file)
        Glibc.close(descriptor)
        return status
    }
}
