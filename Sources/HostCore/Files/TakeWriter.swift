import Foundation
import Synchronization

/// Writes a take: drains its ring into its `AudioFileWriter`, fills the
/// gap a continued take was given, and ends the take at the first write
/// that fails. Run by a `TapRecorder`'s own thread (`run`), or, in a
/// supervised run, by the supervisor's `SharedTakes`, which drains the
/// rings its engines push into (`drain`). One thread drives a writer.
package final class TakeWriter: @unchecked Sendable {
    package let writer: AudioFileWriter
    package let input: TapRecorder.Input
    let stopRequested = Atomic(false)
    private let notifier: EventNotifier?
    /// The first write (or close) error: set by the writing thread (or by
    /// `complete` after the join), read by any thread.
    private let failed = Mutex<AudioFileError?>(nil)
    /// The writing thread's own note that the file is closed after a failure.
    private var stoppedByFailure = false
    /// A continued take: the frame time its next frame was due at (nil: no
    /// gap to fill), the frames it held, its rate. Writing thread only; nil
    /// once handled.
    private var continuation: (frameTime: Int?, frames: Int, sampleRate: Int)?
    /// Where this writer left the ring's read position: a ring found
    /// elsewhere was laid again under it (shared memory reused or
    /// scribbled on), and its frames are another take's. nil before the first drain.
    private var released: Int?
    /// Longest gap filled: a restart takes well under a second; a longer
    /// one (a clock that jumped) is not made into silence.
    private static let maximumGapSeconds = 600

    package init(writer: AudioFileWriter, input: TapRecorder.Input, notifier: EventNotifier?,
                 continuation: (frameTime: Int?, frames: Int, sampleRate: Int)? = nil) {
        self.writer = writer
        self.input = input
        self.notifier = notifier
        self.continuation = continuation
        if continuation == nil { input.counters.before.pointee.store(0, ordering: .releasing) }
    }

    /// Before the first frames of a continued take: silence for the time
    /// between the take's last frame and the first one pushed now. JACK's
    /// frame time is 32 bits and wraps: the difference is taken modulo 2^32.
    private func fillGap() {
        guard let expected = continuation else { return }
        continuation = nil
        var frames = 0
        defer { input.counters.before.pointee.store(expected.frames + frames, ordering: .releasing) }
        let start = input.counters.startFrame.pointee.load(ordering: .acquiring)
        guard start >= 0, let frameTime = expected.frameTime else { return }
        let due = frameTime &+ expected.frames
        let late = Int(Int32(truncatingIfNeeded: start &- due))
        guard late > 0, late <= Self.maximumGapSeconds * expected.sampleRate else { return }
        frames = late
        let silence = [Float](repeating: 0, count: min(frames, 4096) * input.ring.channels)
        var done = 0
        while done < frames {
            let chunk = min(frames - done, 4096)
            let before = writer.framesWritten
            do throws(AudioFileError) {
                try silence.withUnsafeBufferPointer { (samples) throws(AudioFileError) in
                    try writer.write(interleaved: samples.baseAddress!, frames: chunk)
                }
            } catch {
                stop(by: error)
                return
            }
            input.counters.written.pointee.wrappingAdd(writer.framesWritten - before, ordering: .relaxed)
            done += chunk
        }
        input.counters.gapAt.pointee.store(expected.frames, ordering: .relaxed)
        input.counters.gapFrames.pointee.store(frames, ordering: .releasing)
    }

    package var failure: AudioFileError? { failed.withLock { $0 } }

    /// Live recording writes in batches this far apart rather than a file
    /// write (and WAV header rewrite) per block; the 2 s ring holds plenty.
    package static let batchInterval: useconds_t = 20_000

    /// A writer thread of its own: drains until `stopRequested` and the ring is empty.
    func run() {
        while true {
            // Absorb the wake-ups counted so far (one per push, one per stop
            // request) first: a push or stop after this point posts again,
            // so the wait below returns for it.
            while input.dataReady.tryWait() {}
            // Then the flag, before draining: whatever was pushed before the
            // stop request is in the ring and this drain writes it.
            let stopping = stopRequested.load(ordering: .acquiring)
            let drained = drain()
            if stopping && input.ring.readableFrames == 0 { return }
            if drained == 0 {
                input.dataReady.wait()
            } else if input.policy == .dropWhenFull {
                usleep(Self.batchInterval)
            }
        }
    }

    /// Writes every readable frame; returns how many. Positions that do not
    /// add up (shared memory another process scribbled on) end the take;
    /// what is read is found from the positions checked, never read again.
    @discardableResult
    package func drain() -> Int {
        var total = 0
        while true {
            let (read, write) = input.ring.positionsNow
            guard released.map({ $0 == read }) ?? true else {
                // Laid again for another take: its counters are that take's now, and are left alone.
                if !stoppedByFailure { stop(by: .writeFailed(path: writer.path, reason: "its ring was taken for another take"),
                                            tellingProducer: false) }
                return total
            }
            guard read >= 0, write >= read, write - read <= input.ring.capacity else {
                if !stoppedByFailure { stop(by: .writeFailed(path: writer.path, reason: "its ring of audio was damaged")) }
                return total
            }
            guard write > read, let region = input.ring.frames(from: read, count: write - read).first(where: { $0.count > 0 }),
                  let base = region.baseAddress else { return total }
            let frames = region.count / input.ring.channels
            if !stoppedByFailure { fillGap() }
            if !stoppedByFailure {
                let before = writer.framesWritten
                var writeError: AudioFileError?
                do throws(AudioFileError) {
                    try writer.write(interleaved: base, frames: frames)
                } catch {
                    writeError = error
                }
                // Counted before the failure is told, so it is told with the frames kept.
                // Wrapping: the cell is shared memory a damaged engine may have filled.
                input.counters.written.pointee.wrappingAdd(writer.framesWritten - before, ordering: .relaxed)
                if let writeError { stop(by: writeError) }
            }
            // After a failure keep draining, so a producer is never stuck;
            // what is thrown away is not a drop (the take has ended).
            input.ring.consume(frames: frames)
            released = read + frames
            if input.policy == .waitWhenFull { input.spaceReady.signal() }
            total += frames
        }
    }

    /// The take ends at the failed write: the file is closed at once (a
    /// live take stays readable while the session plays on), the producer
    /// told to stop pushing, and the owner woken.
    private func stop(by error: AudioFileError, tellingProducer: Bool = true) {
        stoppedByFailure = true
        writer.closeAfterFailure()
        failed.withLock { $0 = error }
        if tellingProducer { input.counters.failed.pointee.store(true, ordering: .releasing) }
        notifier?.signal()
    }

    /// After the last drain: finalises the file, or, after a failure, throws
    /// it (the file was closed when it happened). Closes the file (an atomic
    /// one keeps its temporary name until committed).
    package func complete() throws(AudioFileError) {
        if let failure {
            writer.abort()
            throw failure
        }
        do {
            try writer.close()
        } catch {
            failed.withLock { $0 = error }
            input.counters.failed.pointee.store(true, ordering: .releasing)
            throw error
        }
    }

    package func abandon() { writer.abort() }
}
