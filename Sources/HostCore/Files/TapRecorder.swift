import Foundation
import Synchronization

/// Records one tap to a file: the realtime side pushes blocks into a
/// preallocated ring through `input`; a writer thread of its own (a
/// `TakeWriter`) drains the ring into an `AudioFileWriter`. In a supervised
/// run a live take's ring lies in the supervisor's `SharedTapRegion` and
/// the supervisor writes the file instead: no plugin's crash can touch it.
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
/// hears of it at once rather than at the end (a supervisor writing the
/// take announces its failure itself).
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
        @usableFromInline package let counters: TapCounters

        init(ring: SPSCFloatRing, policy: Policy, dataReady: PosixSemaphore, spaceReady: PosixSemaphore,
             counters: TapCounters) {
            self.ring = ring
            self.policy = policy
            self.dataReady = dataReady
            self.spaceReady = spaceReady
            self.counters = counters
        }

        /// A live take's ends in a shared slot: the engine's, pushing, or
        /// the supervisor's, writing (which calls `deallocateWakeUps()` when done).
        package init(sharedRing ring: SPSCFloatRing, counters: TapCounters) {
            self.init(ring: ring, policy: .dropWhenFull, dataReady: PosixSemaphore(), spaceReady: PosixSemaphore(),
                      counters: counters)
        }

        /// Frees the wake-ups this process made (not the ring or counters).
        package func deallocateWakeUps() {
            dataReady.deallocate()
            spaceReady.deallocate()
        }

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

    /// Who writes the file: a thread of this process, or the supervisor.
    private enum Writing {
        case here(TakeWriter)
        /// The ring and counters lie in `slot`; the supervisor's `SharedTakes` writes the file.
        case bySupervisor(SharedTapSlot, SharedTapRegion)
    }
    private let writing: Writing
    private var thread: PosixThread?
    private var finished = false
    /// How long `finish` waits for the supervisor to write a take's end.
    private static let supervisorSeconds = 30.0

    /// Creates the file and a ring of `ringFrames` frames (2 s of audio by
    /// default; the writer drains it every `TakeWriter.batchInterval`).
    /// Throws what `AudioFileWriter` throws. With `newTake` (live takes) an
    /// existing file is never opened: the take goes to the next numbered
    /// name, and `path` is the file actually written. `notifier` is
    /// signalled from the writer thread when a write fails.
    ///
    /// With a supervisor's `region` and a slot free in it, a live take is
    /// written by the supervisor: this creates the file empty (so its
    /// errors surface here) and publishes it; the ring and counters lie in
    /// the slot.
    package init(path: String, format: AudioFileFormat, channels: Int, sampleRate: Int,
                mode: AudioFileWriter.Mode = .recording, policy: Policy = .dropWhenFull,
                ringFrames: Int? = nil, newTake: Bool = false, notifier: EventNotifier? = nil,
                region: SharedTapRegion? = nil) throws(AudioFileError) {
        let frames = ringFrames ?? max(2 * sampleRate, 1)
        var writer: AudioFileWriter?
        var shared: (SharedTapSlot, SharedTapRegion)?
        if mode == .recording, newTake, policy == .dropWhenFull, let region,
           let slot = region.claim(channels: channels, sampleRate: sampleRate, frames: frames) {
            let created: (path: String, identity: (device: UInt64, inode: UInt64))
            do {
                try format.validate(channels: channels, sampleRate: sampleRate)
                created = try Self.createEmpty(path)
            } catch {
                slot.release()
                throw error
            }
            if slot.publish(path: created.path, identity: created.identity, continuing: false, expectedFrameTime: nil) {
                region.wakeWriter()
                shared = (slot, region)
                self.path = created.path
            } else {
                // A name too long for the slot: written here after all, into the file just made.
                slot.release()
                let made = try AudioFileWriter(path: created.path, format: format, channels: channels,
                                               sampleRate: sampleRate, mode: mode, emptyTake: created.identity)
                writer = made
                self.path = made.path
            }
        } else {
            let made = try AudioFileWriter(path: path, format: format, channels: channels,
                                           sampleRate: sampleRate, mode: mode, newTake: newTake)
            writer = made
            self.path = made.path
        }
        self.channels = channels
        self.sampleRate = sampleRate
        self.policy = policy
        if let (slot, region) = shared ?? nil, writer == nil {
            input = Input(sharedRing: slot.ring, counters: slot.counters)  // shared only when .dropWhenFull
            writing = .bySupervisor(slot, region)
        } else {
            input = Input(ring: SPSCFloatRing(channels: channels, capacity: frames), policy: policy,
                          dataReady: PosixSemaphore(), spaceReady: PosixSemaphore(), counters: TapCounters())
            writing = .here(TakeWriter(writer: writer!, input: input, notifier: notifier))
        }
    }

    /// A new take's file, created empty under `path` or the next numbered
    /// name, and its identity, for the supervisor to check before it writes.
    private static func createEmpty(_ path: String) throws(AudioFileError) -> (path: String, identity: (device: UInt64, inode: UInt64)) {
        let created: (descriptor: Int32, path: String)
        do {
            created = try RegularFile.createNewTake(path)
        } catch {
            throw AudioFileError(writing: error, path: path)
        }
        defer { close(created.descriptor) }
        var info = stat()
        guard fstat(created.descriptor, &info) == 0 else {
            throw .cannotCreate(path: created.path, reason: String(cString: strerror(errno)))
        }
        return (created.path, (UInt64(info.st_dev), UInt64(info.st_ino)))
    }

    /// A take an engine before this one recorded (a restart), which the
    /// supervisor holds open or opens again: published to go on in the
    /// same file, with silence for the time no engine recorded when
    /// `expectedFrameTime` (the JACK frame time its next frame would have
    /// been played at) is known. nil when no slot is free.
    package init?(adopting path: String, channels: Int, sampleRate: Int, expectedFrameTime: Int?,
                  region: SharedTapRegion, ringFrames: Int? = nil) {
        let frames = ringFrames ?? max(2 * sampleRate, 1)
        guard let slot = region.claim(channels: channels, sampleRate: sampleRate, frames: frames) else { return nil }
        guard slot.publish(path: path, identity: nil, continuing: true, expectedFrameTime: expectedFrameTime) else {
            slot.release()
            return nil
        }
        region.wakeWriter()
        self.path = path
        self.channels = channels
        self.sampleRate = sampleRate
        policy = .dropWhenFull
        input = Input(sharedRing: slot.ring, counters: slot.counters)
        writing = .bySupervisor(slot, region)
    }

    deinit {
        if !finished { abort() }
        input.ring.deallocate()
        input.dataReady.deallocate()
        input.spaceReady.deallocate()
        input.counters.deallocate()
    }

    /// Opens the take at `path` to go on after its last frame (a restarted
    /// engine's, see `AudioFileWriter.init(continuing:)`). With
    /// `expectedFrameTime`, the JACK frame time the file's next frame
    /// would have been played at, the writer first fills the time no
    /// engine recorded with silence of its exact length (`gap`), once the
    /// first push says when recording resumed (`setStartFrame`).
    package init(continuing path: String, channels: Int, sampleRate: Int, expectedFrameTime: Int?,
                 ringFrames: Int? = nil, notifier: EventNotifier? = nil) throws(AudioFileError) {
        let writer = try AudioFileWriter(continuing: path, channels: channels, sampleRate: sampleRate)
        let frames = ringFrames ?? max(2 * sampleRate, 1)
        input = Input(ring: SPSCFloatRing(channels: channels, capacity: frames), policy: .dropWhenFull,
                      dataReady: PosixSemaphore(), spaceReady: PosixSemaphore(), counters: TapCounters())
        input.counters.written.pointee.store(writer.framesWritten, ordering: .relaxed)
        writing = .here(TakeWriter(writer: writer, input: input, notifier: notifier,
                                   continuation: (expectedFrameTime, writer.framesWritten, sampleRate)))
        self.path = writer.path
        self.channels = channels
        self.sampleRate = sampleRate
        policy = .dropWhenFull
    }

    /// True when the take at `path` can be opened again to go on with
    /// (`AudioFileWriter.init(continuing:)`): a WAV or RF64 file of these
    /// channels and rate. Read only: nothing is written here.
    package static func canContinue(_ path: String, channels: Int, sampleRate: Int) -> Bool {
        guard let format = try? AudioFileFormat(path: path), [.wavFloat, .wav16, .wav24, .rf64].contains(format),
              let reader = try? AudioFileReader(path: path) else { return false }
        return reader.channels == channels && reader.sampleRate == sampleRate
    }

    /// True when the supervisor writes the file (`SharedTakes`).
    package var isWrittenBySupervisor: Bool {
        if case .bySupervisor = writing { return true }
        return false
    }

    /// The JACK frame time the file's first frame stands at: when the first
    /// frame was pushed, less what a continued take held before it (its
    /// earlier frames and the gap). nil before the first push, offline, or
    /// once the clock broke (`breakClock`).
    package var startFrame: Int? {
        let frame = input.counters.startFrame.pointee.load(ordering: .acquiring)
        guard frame >= 0, !clockBroken.load(ordering: .relaxed) else { return nil }
        let before = input.counters.before.pointee.load(ordering: .acquiring)
        guard before >= 0 else { return nil }
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
    package var gap: (atFrame: Int, frames: Int)? { input.counters.gap }

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
    package var failure: AudioFileError? {
        switch writing {
        case .here(let writer): return writer.failure
        case .bySupervisor(let slot, _):
            guard hasFailed else { return nil }
            return .writeFailed(path: path, reason: slot.failureReason ?? "fxhost's supervising process could not write it")
        }
    }

    /// Paused, the live producer pushes nothing: a stretch left out of the
    /// take, not silence in it. Takes effect at the producer's next push.
    package var isPaused: Bool { input.isPaused }
    package func pause() { input.counters.paused.pointee.store(true, ordering: .relaxed) }
    package func resume() { input.counters.paused.pointee.store(false, ordering: .relaxed) }

    /// Launches the writer thread (once; later calls do nothing; the supervisor writes its own).
    package func start() throws(AudioFileError) {
        guard thread == nil, !finished, case .here(let writer) = writing else { return }
        do {
            thread = try PosixThread(name: "fxhost tap") { writer.run() }
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
        switch writing {
        case .here(let writer):
            try start()
            stopWriter()
            finished = true
            try writer.complete()
            if commit { try writer.writer.commit() }
        case .bySupervisor(let slot, _):
            finished = true
            guard closeBySupervisor() else {
                // Failed in its status too; the slot stays the supervisor's until this engine ends.
                slot.failureReason = "fxhost's supervising process did not finish writing it"
                input.counters.failed.pointee.store(true, ordering: .releasing)
                throw .finishFailed(path: path, reason: slot.failureReason ?? "")
            }
            if let failure { throw failure }
        }
    }

    /// Asks the supervisor to write the rest and close the file, and waits
    /// until it did; false if it did not within `supervisorSeconds`.
    private func closeBySupervisor() -> Bool {
        guard case .bySupervisor(let slot, let region) = writing else { return true }
        slot.requestClose()
        region.wakeWriter()
        let deadline = Date().addingTimeInterval(Self.supervisorSeconds)
        while !slot.isClosed {
            guard Date() < deadline else { return false }
            usleep(1000)
        }
        // The counters' last values stay readable until another take claims
        // the slot, on this same thread: the take's status is read first.
        slot.release()
        return true
    }

    /// Renames an atomic file finished with `commit: false` into place.
    package func commit() throws(AudioFileError) {
        if case .here(let writer) = writing { try writer.writer.commit() }
    }

    /// Stops without finishing: in atomic mode the partial file is removed,
    /// in recording mode the take so far is kept.
    package func abort() {
        switch writing {
        case .here(let writer):
            guard !finished else {
                writer.writer.abort() // removes a file closed but not committed
                return
            }
            stopWriter()
            finished = true
            writer.abandon()
        case .bySupervisor:
            guard !finished else { return }
            finished = true
            _ = closeBySupervisor()
        }
    }

    private func stopWriter() {
        guard let thread, case .here(let writer) = writing else { return }
        writer.stopRequested.store(true, ordering: .releasing)
        input.dataReady.signal()
        thread.join()
        self.thread = nil
    }
}
