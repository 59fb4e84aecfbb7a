import Foundation
import Synchronization

/// Records one tap to a file: the realtime side pushes blocks into a
/// preallocated ring through `input`; a writer thread of its own drains the
/// ring into an `AudioFileWriter`.
///
/// Life cycle: `init` (creates the file, so its errors surface at once) →
/// `start()` (launches the writer; pushes before it fill the ring) → pushes
/// → `finish()` (after the last push: drains, finalises the file, joins).
/// Between, `pause()` and `resume()` switch a flag the live producer reads
/// before each push (`Input.isPaused`): the take simply continues after
/// the paused stretch.
///
/// A write that fails (a full disk, a file size limit, an I/O error) ends
/// the take there and then: the writer closes the file at its last whole
/// frame (`AudioFileWriter.closeAfterFailure`), raises a flag the producer
/// reads before each push (`Input.hasFailed`: a live producer stops pushing,
/// so nothing more is counted as dropped), keeps the error (`failure`) and
/// signals the notifier it was given, so the thread that owns the session
/// hears of it at once rather than at the end.
package final class TapRecorder {
    /// Which push the producer uses, and so how the writer runs.
    package enum Policy: Sendable {
        /// Live: the producer uses `push`, which drops and counts a block
        /// that does not fit; the writer writes in batches.
        case dropWhenFull
        /// Offline or freewheel: the producer uses `pushWaiting`, which waits
        /// for room; the writer signals room after every write.
        case waitWhenFull
    }

    /// The producer side (`push` on the realtime thread, `pushWaiting` on
    /// an offline render thread): plain pointers, free to copy into a
    /// process callback (or to keep behind an `UnsafePointer`). Valid while
    /// its `TapRecorder` lives; push nothing once `finish()` is called.
    package struct Input: @unchecked Sendable {
        package let ring: SPSCFloatRing
        package let policy: Policy
        @usableFromInline let dataReady: PosixSemaphore
        @usableFromInline let spaceReady: PosixSemaphore
        @usableFromInline let counters: TapCounters

        /// Realtime-safe (one relaxed atomic load): true while the recorder
        /// is paused; a live producer then pushes nothing, and drops nothing.
        package var isPaused: Bool {
            @inlinable @_noLocks get { counters.paused.pointee.load(ordering: .relaxed) }
        }

        /// Realtime-safe (one relaxed atomic load): true once a write failed
        /// and the file is closed; a live producer then pushes nothing.
        package var hasFailed: Bool {
            @inlinable @_noLocks get { counters.failed.pointee.load(ordering: .relaxed) }
        }

        /// Realtime-safe (one relaxed load): true until the first frame is
        /// pushed and its time kept (`setStartFrame`).
        package var needsStartFrame: Bool {
            @inlinable @_noLocks get { counters.startFrame.pointee.load(ordering: .relaxed) < 0 }
        }

        /// Realtime-safe (one store): the JACK frame time the first frame
        /// pushed was played at, before that push (a restarted engine's
        /// writer reads it to fill the gap in a take it continues).
        @inlinable @_noLocks
        package func setStartFrame(_ frameTime: Int) {
            counters.startFrame.pointee.store(frameTime, ordering: .releasing)
        }

        /// Realtime-safe (one add): `frames` played while paused, not in the file.
        @inlinable @_noLocks
        package func skip(frames: Int) {
            counters.skipped.pointee.add(frames, ordering: .relaxed)
        }

        /// Realtime-safe (a load, at most an add, a store): the chunk of
        /// `frames` played at JACK frame time `frameTime` (paused or not)
        /// follows the last one; the frames between them that the server
        /// played without running fxhost (an xrun) count as skipped, so the
        /// take's frames plus those it skipped stay on the server's clock.
        @inlinable @_noLocks
        package func follow(frameTime: Int, frames: Int) {
            let due = counters.nextFrame.pointee.load(ordering: .relaxed)
            if due >= 0 {
                // JACK's frame time is 32 bits and wraps; a jump back or of
                // minutes (a new server) is no skip.
                let late = Int(Int32(truncatingIfNeeded: frameTime &- due))
                if late > 0 && late < 1 << 23 { counters.skipped.pointee.add(late, ordering: .relaxed) }
            }
            counters.nextFrame.pointee.store((frameTime &+ frames) & 0xFFFF_FFFF, ordering: .relaxed)
        }

        /// Realtime-safe: pushes `frames` frames of planar audio (one buffer
        /// per channel) if the ring has room for the whole block; otherwise
        /// returns false and counts the frames as dropped. Never waits, whatever
        /// the policy.
        @inlinable @_noLocks
        package func push(channels: UnsafeBufferPointer<UnsafePointer<Float>>, frames: Int) -> Bool {
            guard ring.write(channels: channels, frames: frames) else {
                counters.dropped.pointee.add(frames, ordering: .relaxed)
                return false
            }
            dataReady.signal()
            return true
        }

        /// Blocking, for offline and freewheel renders (`.waitWhenFull`
        /// only; call `start()` first): pushes `frames` frames, waiting for
        /// room as often as needed, so nothing is lost. Blocks larger than
        /// the ring go in ring-sized pieces.
        /// After a write failed it returns at once: the file takes nothing more.
        package func pushWaiting(channels: UnsafeBufferPointer<UnsafePointer<Float>>, frames: Int) {
            precondition(policy == .waitWhenFull, "only a .waitWhenFull recorder's writer makes room for a waiting push")
            var done = 0
            while done < frames, !counters.failed.pointee.load(ordering: .relaxed) {
                let piece = min(frames - done, ring.capacity)
                if ring.write(channels: channels, offset: done, frames: piece) {
                    done += piece
                    dataReady.signal()
                } else {
                    dataReady.signal()
                    spaceReady.wait()
                }
            }
        }
    }

    package let path: String
    package let channels: Int
    package let sampleRate: Int
    package let policy: Policy
    /// Hand this to the realtime side.
    package let input: Input

    private let writerState: WriterState
    /// Where the ring and counters live when a supervisor shares them
    /// (`SharedTapRegion`): it finishes the take if this process dies.
    private let slot: SharedTapSlot?
    private var thread: PosixThread?
    private var finished = false

    /// Creates the file and a ring of `ringFrames` frames (2 s of audio by
    /// default; the writer drains it every `WriterState.batchInterval`).
    /// Throws what `AudioFileWriter` throws. With `newTake` (live takes) an
    /// existing file is never opened: the take goes to the next numbered
    /// name, and `path` is the file actually written. `notifier` is
    /// signalled from the writer thread when a write fails.
    package init(path: String, format: AudioFileFormat, channels: Int, sampleRate: Int,
                mode: AudioFileWriter.Mode = .recording, policy: Policy = .dropWhenFull,
                ringFrames: Int? = nil, newTake: Bool = false, notifier: EventNotifier? = nil,
                region: SharedTapRegion? = nil) throws(AudioFileError) {
        let writer = try AudioFileWriter(path: path, format: format, channels: channels,
                                         sampleRate: sampleRate, mode: mode, newTake: newTake)
        let frames = ringFrames ?? max(2 * sampleRate, 1)
        // Only a take that can be continued (WAV, RF64) is worth finishing for a dead engine.
        let continuable = [.wavFloat, .wav16, .wav24, .rf64].contains(format) && mode == .recording
        let claimed = continuable ? region?.claim(path: writer.path, channels: channels, sampleRate: sampleRate, frames: frames) : nil
        slot = claimed
        let ring = claimed?.ring ?? SPSCFloatRing(channels: channels, capacity: frames)
        input = Input(ring: ring, policy: policy, dataReady: PosixSemaphore(), spaceReady: PosixSemaphore(),
                      counters: claimed?.counters ?? TapCounters())
        writerState = WriterState(writer: writer, input: input, notifier: notifier)
        self.path = writer.path
        self.channels = channels
        self.sampleRate = sampleRate
        self.policy = policy
    }

    deinit {
        if !finished {
            stopWriter()
            writerState.abandon()
        }
        input.ring.deallocate()
        input.dataReady.deallocate()
        input.spaceReady.deallocate()
        input.counters.deallocate()
        slot?.release()
    }

    /// Opens the take at `path` to go on after its last frame (a restarted
    /// engine's, see `AudioFileWriter.init(continuing:)`). With
    /// `expectedFrameTime`, the JACK frame time the file's next frame
    /// would have been played at, the writer first fills the time no
    /// engine recorded with silence of its exact length (`gap`), once the
    /// first push says when recording resumed (`setStartFrame`).
    package init(continuing path: String, channels: Int, sampleRate: Int, expectedFrameTime: Int?,
                 ringFrames: Int? = nil, notifier: EventNotifier? = nil, region: SharedTapRegion? = nil) throws(AudioFileError) {
        let writer = try AudioFileWriter(continuing: path, channels: channels, sampleRate: sampleRate)
        let frames = ringFrames ?? max(2 * sampleRate, 1)
        let claimed = region?.claim(path: writer.path, channels: channels, sampleRate: sampleRate, frames: frames)
        slot = claimed
        let ring = claimed?.ring ?? SPSCFloatRing(channels: channels, capacity: frames)
        input = Input(ring: ring, policy: .dropWhenFull, dataReady: PosixSemaphore(), spaceReady: PosixSemaphore(),
                      counters: claimed?.counters ?? TapCounters())
        input.counters.written.pointee.store(writer.framesWritten, ordering: .relaxed)
        writerState = WriterState(writer: writer, input: input, notifier: notifier,
                                  continuation: (expectedFrameTime, writer.framesWritten, sampleRate))
        self.path = writer.path
        self.channels = channels
        self.sampleRate = sampleRate
        policy = .dropWhenFull
    }

    /// The JACK frame time the file's first frame stands at: when the first
    /// frame was pushed, less what a continued take held before it (its
    /// earlier frames and the gap). nil before the first push, offline, or
    /// once the clock broke (`breakClock`).
    package var startFrame: Int? {
        let frame = input.counters.startFrame.pointee.load(ordering: .acquiring)
        guard frame >= 0, !clockBroken.load(ordering: .relaxed) else { return nil }
        guard let before = writerState.framesBeforeStart else { return nil }
        return frame &- before
    }

    /// The take's frames no longer follow the server's frame clock one for
    /// one (a bounce played while it recorded nothing, the server restarted):
    /// `startFrame` says nothing from here on.
    package func breakClock() {
        clockBroken.store(true, ordering: .relaxed)
        // No live push runs now (a bounce, a new server): the time since is no xrun.
        input.counters.nextFrame.pointee.store(-1, ordering: .relaxed)
    }
    private let clockBroken = Atomic<Bool>(false)

    /// Frames played while paused, which the file does not hold.
    package var framesSkipped: Int { input.counters.skipped.pointee.load(ordering: .relaxed) }

    /// The silence a continued take was given for the time no engine
    /// recorded: where in the file it starts, and how long it is (frames).
    package var gap: (atFrame: Int, frames: Int)? { writerState.gap }

    /// Frames in the file so far.
    package var framesWritten: Int { input.counters.written.pointee.load(ordering: .relaxed) }
    /// Frames the realtime side dropped because the ring was full. What a
    /// failed file could not take is not counted: the take ended there.
    package var framesDropped: Int { input.counters.dropped.pointee.load(ordering: .relaxed) }
    package var secondsRecorded: Double { Double(framesWritten) / Double(sampleRate) }

    /// True once a write failed (or the file failed to close); `failure` says why.
    package var hasFailed: Bool { input.counters.failed.pointee.load(ordering: .acquiring) }
    /// The error that ended the take early, from any thread: a write that
    /// failed while recording (the file is closed at its last whole frame)
    /// or the file failing to close at `finish()`. nil while all is well.
    package var failure: AudioFileError? { writerState.failure }

    /// Paused, the live producer pushes nothing: a stretch left out of the
    /// take, not silence in it. Takes effect at the producer's next push.
    package var isPaused: Bool { input.isPaused }
    package func pause() { input.counters.paused.pointee.store(true, ordering: .relaxed) }
    package func resume() { input.counters.paused.pointee.store(false, ordering: .relaxed) }

    /// Launches the writer thread (once; later calls do nothing).
    package func start() throws(AudioFileError) {
        guard thread == nil, !finished else { return }
        let state = writerState
        do {
            thread = try PosixThread(name: "fxhost tap") { state.run() }
        } catch {
            throw .cannotStartWriter(path: path, reason: error.reason)
        }
    }

    /// After the last push: writes everything still in the ring, finalises
    /// the file (renames it into place in atomic mode) and joins the writer.
    /// Throws the first write error the writer met (also kept as `failure`).
    /// With `commit: false` an atomic file stays under its temporary name
    /// until `commit()` (or is removed by `abort()`).
    package func finish(commit: Bool = true) throws(AudioFileError) {
        guard !finished else { throw .closed(path: path) }
        try start()
        stopWriter()
        finished = true
        slot?.release()  // all written (or failed): nothing left for a supervisor to finish
        try writerState.complete()
        if commit { try writerState.writer.commit() }
    }

    /// Renames an atomic file finished with `commit: false` into place.
    package func commit() throws(AudioFileError) {
        try writerState.writer.commit()
    }

    /// Stops without finishing: in atomic mode the partial file is removed,
    /// in recording mode the take so far is kept.
    package func abort() {
        guard !finished else {
            writerState.writer.abort() // removes a file closed but not committed
            return
        }
        stopWriter()
        finished = true
        slot?.release()
        writerState.abandon()
    }

    private func stopWriter() {
        guard let thread else { return }
        writerState.stopRequested.store(true, ordering: .releasing)
        input.dataReady.signal()
        thread.join()
        self.thread = nil
    }
}

/// Statistics shared between the realtime side, the writer and observers,
/// and the pause switch the control thread sets for the realtime side, in
/// raw memory so the realtime side touches no class reference.
package struct TapCounters: @unchecked Sendable {
    package let written: UnsafeMutablePointer<Atomic<Int>>
    package let dropped: UnsafeMutablePointer<Atomic<Int>>
    package let paused: UnsafeMutablePointer<Atomic<Bool>>
    /// Set by the writer once a write failed and the file is closed.
    package let failed: UnsafeMutablePointer<Atomic<Bool>>
    /// The JACK frame time of the first frame pushed; -1 until then.
    package let startFrame: UnsafeMutablePointer<Atomic<Int>>
    /// Frames played while paused, or left out by the server (cycles it
    /// did not run fxhost in): time that lies between the file's frames.
    package let skipped: UnsafeMutablePointer<Atomic<Int>>
    /// The JACK frame time the next push is due at; -1 before the first.
    package let nextFrame: UnsafeMutablePointer<Atomic<Int>>
    /// Frames the file held before the ring's first frame (a continued
    /// take's, and its gap); -1 until the writer knows. With the ring's
    /// positions it says which frames a take's file already holds.
    package let before: UnsafeMutablePointer<Atomic<Int>>
    /// False for cells in a `SharedTapRegion`'s slot, which the region owns.
    private let owned: Bool

    /// Cells at `cells` (`SharedTapSlot.counterBytes` bytes, 8-byte aligned,
    /// provided and kept by the caller); with `reset` set to their starting values.
    package init(cells: UnsafeMutableRawPointer, reset: Bool) {
        func cell<T: ~Copyable>(_ index: Int, _ type: T.Type) -> UnsafeMutablePointer<T> {
            (cells + index * 8).assumingMemoryBound(to: T.self)
        }
        written = cell(0, Atomic<Int>.self)
        dropped = cell(1, Atomic<Int>.self)
        paused = cell(2, Atomic<Bool>.self)
        failed = cell(3, Atomic<Bool>.self)
        startFrame = cell(4, Atomic<Int>.self)
        skipped = cell(5, Atomic<Int>.self)
        before = cell(6, Atomic<Int>.self)
        nextFrame = cell(7, Atomic<Int>.self)
        owned = false
        if reset {
            for (pointer, value) in [(written, 0), (dropped, 0), (startFrame, -1), (skipped, 0), (before, -1), (nextFrame, -1)] {
                pointer.initialize(to: Atomic(value))
            }
            paused.initialize(to: Atomic(false))
            failed.initialize(to: Atomic(false))
        }
    }

    /// The bytes `init(cells:reset:)` uses.
    package static let cellBytes = 8 * 8

    init() {
        written = .allocate(capacity: 1)
        written.initialize(to: Atomic(0))
        dropped = .allocate(capacity: 1)
        dropped.initialize(to: Atomic(0))
        paused = .allocate(capacity: 1)
        paused.initialize(to: Atomic(false))
        failed = .allocate(capacity: 1)
        failed.initialize(to: Atomic(false))
        startFrame = .allocate(capacity: 1)
        startFrame.initialize(to: Atomic(-1))
        skipped = .allocate(capacity: 1)
        skipped.initialize(to: Atomic(0))
        before = .allocate(capacity: 1)
        before.initialize(to: Atomic(-1))
        nextFrame = .allocate(capacity: 1)
        nextFrame.initialize(to: Atomic(-1))
        owned = true
    }

    func deallocate() {
        guard owned else { return }
        written.deinitialize(count: 1)
        written.deallocate()
        dropped.deinitialize(count: 1)
        dropped.deallocate()
        paused.deinitialize(count: 1)
        paused.deallocate()
        failed.deinitialize(count: 1)
        failed.deallocate()
        startFrame.deinitialize(count: 1)
        startFrame.deallocate()
        skipped.deinitialize(count: 1)
        skipped.deallocate()
        before.deinitialize(count: 1)
        before.deallocate()
        nextFrame.deinitialize(count: 1)
        nextFrame.deallocate()
    }
}

/// What the writer thread owns: the file and its end of the ring.
private final class WriterState: @unchecked Sendable {
    let writer: AudioFileWriter
    let input: TapRecorder.Input
    let stopRequested = Atomic(false)
    private let notifier: EventNotifier?
    /// The first write (or close) error: set by the writer thread (or by
    /// `complete` after the join), read by any thread.
    private let failed = Mutex<AudioFileError?>(nil)
    /// The writer thread's own note that the file is closed after a failure.
    private var stoppedByFailure = false

    /// A continued take's gap still to fill: the frame time its next frame
    /// was due at, the frames it held, its rate. Writer thread only.
    /// A continued take: the frame time its next frame was due at (nil: no
    /// gap to fill), the frames it held, its rate. Writer thread only; nil
    /// once handled.
    private var continuation: (frameTime: Int?, frames: Int, sampleRate: Int)?
    private let filledGap = Mutex<(atFrame: Int, frames: Int)?>(nil)
    /// Frames in the file before the first one pushed here (a continued
    /// take's, and its gap); nil until the first push is handled.
    private let before = Mutex<Int?>(nil)
    /// Longest gap filled: a restart takes well under a second; a longer
    /// one (a clock that jumped) is not made into silence.
    private static let maximumGapSeconds = 600

    init(writer: AudioFileWriter, input: TapRecorder.Input, notifier: EventNotifier?,
         continuation: (frameTime: Int?, frames: Int, sampleRate: Int)? = nil) {
        self.writer = writer
        self.input = input
        self.notifier = notifier
        self.continuation = continuation
        if continuation == nil { setBefore(0) }
    }

    /// Kept twice: here for this process, and in the counters for a
    /// supervisor that finishes the ring's frames if this process dies.
    private func setBefore(_ frames: Int) {
        before.withLock { $0 = frames }
        input.counters.before.pointee.store(frames, ordering: .releasing)
    }

    var gap: (atFrame: Int, frames: Int)? { filledGap.withLock { $0 } }
    var framesBeforeStart: Int? { before.withLock { $0 } }

    /// Before the first frames of a continued take: silence for the time
    /// between the take's last frame and the first one pushed now. JACK's
    /// frame time is 32 bits and wraps: the difference is taken modulo 2^32.
    private func fillGap() {
        guard let expected = continuation else { return }
        continuation = nil
        var frames = 0
        defer { setBefore(expected.frames + frames) }
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
            input.counters.written.pointee.add(writer.framesWritten - before, ordering: .relaxed)
            done += chunk
        }
        filledGap.withLock { $0 = (expected.frames, frames) }
    }

    var failure: AudioFileError? { failed.withLock { $0 } }

    /// Live recording writes in batches this far apart rather than a file
    /// write (and WAV header rewrite) per block; the 2 s ring holds plenty.
    static let batchInterval: useconds_t = 20_000

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

    /// Writes every readable frame; returns how many.
    private func drain() -> Int {
        var total = 0
        while true {
            let region = input.ring.readableRegion()
            let frames = region.count / input.ring.channels
            guard frames > 0, let base = region.baseAddress else { return total }
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
                input.counters.written.pointee.add(writer.framesWritten - before, ordering: .relaxed)
                if let writeError { stop(by: writeError) }
            }
            // After a failure keep draining, so a producer is never stuck;
            // what is thrown away is not a drop (the take has ended).
            input.ring.consume(frames: frames)
            if input.policy == .waitWhenFull { input.spaceReady.signal() }
            total += frames
        }
    }

    /// The take ends at the failed write: the file is closed at once (a
    /// live take stays readable while the session plays on), the producer
    /// told to stop pushing, and the owner woken.
    private func stop(by error: AudioFileError) {
        stoppedByFailure = true
        writer.closeAfterFailure()
        failed.withLock { $0 = error }
        input.counters.failed.pointee.store(true, ordering: .releasing)
        notifier?.signal()
    }

    /// After the join: finalises the file, or, after a failure, throws it
    /// (the file was closed when it happened). Closes the file (an atomic
    /// one keeps its temporary name until committed).
    func complete() throws(AudioFileError) {
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

    func abandon() { writer.abort() }
}
