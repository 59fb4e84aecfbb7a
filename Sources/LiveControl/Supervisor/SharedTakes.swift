import Glibc
import HostCore
import JackIO
import Synchronization

/// The supervisor's side of its engines' takes: the shared region their
/// tap rings and counters live in (`SharedTapRegion`, made once, passed to
/// every engine, kept across restarts), and the thread that writes them.
///
/// An engine creates each take's file empty and publishes it in a slot;
/// the thread here (`fxhost takes`) opens it, drains the ring into it every
/// `TakeWriter.batchInterval` (or at once when an engine wakes it), and
/// closes it when the engine says the take ended. So a take is written by
/// the process no plugin runs in. When an engine dies, `engineEnded` writes
/// everything it pushed and keeps its takes open; the next engine publishes
/// the same file as a continuation and the take goes on in it, after
/// silence of the time no engine recorded (any format: the file never
/// closed). A slot is read as hostile: a file that is not the empty one
/// the engine made, a shape that does not fit, or positions that do not
/// add up end that take with a sentence, never the supervisor.
package final class SharedTakes: @unchecked Sendable {
    private let region: SharedTapRegion?
    private let regionDescriptor: Int32?
    /// Signalled when a take failed, for the host to announce it (`takeFailures`).
    package let notifier = EventNotifier()
    private let shared = Shared()
    private var thread: PosixThread?

    /// What the writing thread keeps hold of. Failures have a lock of their
    /// own: the host reads them without waiting for a write to the disk.
    private final class Shared: Sendable {
        let takes = Mutex(Takes())
        let failures = Mutex<[Failure]>([])
        let stopping = Atomic(false)
    }

    /// A take this process could not write: its file, why, and how far it got.
    package struct Failure: Sendable {
        package var file: String
        package var reason: String
        package var seconds: Double
        package var droppedFrames: Int
    }

    package init() {
        if let (region, descriptor) = SharedTapRegion.create() {
            self.region = region
            regionDescriptor = descriptor
        } else {
            region = nil
            regionDescriptor = nil
        }
    }

    deinit {
        stop()
        if let regionDescriptor { close(regionDescriptor) }
    }

    /// The region's descriptor, for an engine; nil when there is none or
    /// the writing thread does not run (each engine then writes its own
    /// takes, as an unsupervised one does).
    package var descriptor: Int32? { thread == nil ? nil : regionDescriptor }

    /// Starts the writing thread (once). It wakes when an engine publishes
    /// or ends a take, every `TakeWriter.batchInterval` while one is open,
    /// and at least once a second (the semaphore lies in memory an engine
    /// could have damaged).
    package func start() {
        guard thread == nil, let region else { return }
        let notifier = notifier
        thread = try? PosixThread(name: "fxhost takes") { [shared] in
            while !shared.stopping.load(ordering: .acquiring) {
                let writing = shared.takes.withLock { $0.service(region, notifier: notifier, failures: shared.failures) }
                region.waitForWork(seconds: writing ? Double(TakeWriter.batchInterval) / 1e6 : 1)
            }
        }
    }

    /// Once the engine that held them was reaped: writes every frame it
    /// pushed, brings `taps` (the takes as last read) up to date from the
    /// counters, keeps the takes it recorded open for the next engine
    /// (`isHeld`) and closes the rest, and frees every slot.
    package func engineEnded(_ taps: inout [LiveStatus.Tap]) {
        guard let region else { return }
        shared.takes.withLock { $0.engineEnded(region, taps: &taps, notifier: notifier, failures: shared.failures) }
    }

    /// Once the engine was reaped: where each of its file and MIDI-file
    /// sources stood on the server's clock (their clocks lie in the region:
    /// `LiveSourceClock.make`), as its last cycle left them; nil for one
    /// whose origin was to be noted anew. Frees their entries.
    package func takeSourceOrigins() -> [String: Int?] {
        guard let region else { return [:] }
        defer { region.releaseAllClocks() }
        var origins: [String: Int?] = [:]
        for clock in region.clocks { origins[clock.name] = .some(LiveSourceClock.reading(clock.cells).pointee.knownOrigin) }
        return origins
    }

    /// True when the take written to `file` is open here, waiting for an engine to go on with it.
    package func isHeld(_ file: String) -> Bool { shared.takes.withLock { $0.waiting[file] != nil } }

    /// Before an engine starts: the takes it is handed to go on with. One
    /// not held open here (a WAV or RF64 take an engine finished) is opened
    /// again when the engine publishes it; no other file is.
    package func handing(_ files: Set<String>) {
        shared.takes.withLock { $0.handed = files }
    }

    /// After an engine started: takes it did not go on with are closed (it
    /// could not, or their taps are gone).
    package func closeUnadopted() {
        guard let region else { return }
        shared.takes.withLock {
            _ = $0.service(region, notifier: notifier, failures: shared.failures)
            $0.closeWaiting()
        }
    }

    /// The takes that failed since the last call.
    package func takeFailures() -> [Failure] {
        shared.failures.withLock { failures in
            defer { failures = [] }
            return failures
        }
    }

    /// Stops the thread, and closes every take still open (the run ends;
    /// an engine that could not be reaped left its takes in `open`).
    package func stop() {
        if let thread {
            shared.stopping.store(true, ordering: .releasing)
            region?.wakeWriter()
            thread.join()
            self.thread = nil
        }
        shared.takes.withLock { $0.closeAll() }
    }
}

/// What the writing thread and the host share, under `SharedTakes`'s lock.
private struct Takes: ~Copyable {
    /// A take being written, by slot.
    struct Open {
        let slot: SharedTapSlot
        /// The slot's publication this is (`SharedTapSlot.generation`).
        let generation: Int
        let path: String
        /// nil: its slot was refused (a file that was not the engine's, a shape that did not fit).
        let writer: TakeWriter?
        var failureTold = false
    }
    var open: [Int: Open] = [:]
    /// Takes a dead engine recorded, still open, by file, until an engine goes on with them.
    var waiting: [String: AudioFileWriter] = [:]
    /// The continuations the running engine was handed: the only files a continuation may open again.
    var handed: Set<String> = []

    /// Opens what engines published, writes what they pushed, closes what
    /// they ended; true while a take is open. A slot whose state or
    /// publication changed under a take being written (memory scribbled on)
    /// ends that take first: its file is never given another's audio.
    mutating func service(_ region: SharedTapRegion, notifier: EventNotifier, failures: borrowing Mutex<[SharedTakes.Failure]>) -> Bool {
        for slot in region.slots {
            if let take = open[slot.index], !(slot.isReady || slot.isClosing) || slot.generation != take.generation {
                close(slot.index, notifier: notifier, failures: failures, markClosed: false)
            }
            if open[slot.index] == nil, slot.isReady || slot.isClosing {
                open[slot.index] = begin(slot, notifier: notifier, failures: failures)
            }
            guard var take = open[slot.index] else { continue }
            take.writer?.drain()
            tellFailure(&take, notifier: notifier, failures: failures)
            open[slot.index] = take
            if slot.isClosing { close(slot.index, notifier: notifier, failures: failures) }
        }
        return !open.isEmpty
    }

    /// A published take: its file opened (a new one checked to be the
    /// empty file the engine made; a continuation taken from `waiting`, or
    /// opened again when it was handed and is open nowhere here).
    private mutating func begin(_ slot: SharedTapSlot, notifier: EventNotifier, failures: borrowing Mutex<[SharedTakes.Failure]>) -> Open {
        let generation = slot.generation
        guard let take = slot.published else {
            return refuse(slot, generation, path: "", "its slot of shared memory was damaged", notifier: notifier, failures: failures)
        }
        guard !open.values.contains(where: { $0.path == take.path }) else {
            return refuse(slot, generation, path: take.path, "it is being written already", notifier: notifier, failures: failures)
        }
        let input = TapRecorder.Input(sharedRing: slot.ring(channels: take.channels, frames: take.frames), counters: slot.counters)
        if take.continuing {
            let held = waiting.removeValue(forKey: take.path)
            var reopened: AudioFileWriter?
            if held == nil, handed.contains(take.path) {
                reopened = try? AudioFileWriter(continuing: take.path, channels: take.channels, sampleRate: take.sampleRate)
            }
            guard let file = held ?? reopened, file.channels == take.channels, file.sampleRate == take.sampleRate else {
                input.deallocateWakeUps()
                return refuse(slot, generation, path: take.path, "the take it goes on with could not be opened again",
                              notifier: notifier, failures: failures)
            }
            handed.remove(take.path)
            input.counters.written.pointee.store(file.framesWritten, ordering: .relaxed)
            let writer = TakeWriter(writer: file, input: input, notifier: notifier,
                                    continuation: (take.expectedFrameTime, file.framesWritten, take.sampleRate))
            return Open(slot: slot, generation: generation, path: take.path, writer: writer)
        }
        do {
            let file = try AudioFileWriter(path: take.path, format: try AudioFileFormat(path: take.path), channels: take.channels,
                                           sampleRate: take.sampleRate, mode: .recording, emptyTake: take.identity)
            return Open(slot: slot, generation: generation, path: take.path,
                        writer: TakeWriter(writer: file, input: input, notifier: notifier))
        } catch {
            input.deallocateWakeUps()
            return refuse(slot, generation, path: take.path, error.description, notifier: notifier, failures: failures)
        }
    }

    /// A take that cannot be written: the engine's realtime side stops pushing, and the host hears why.
    private func refuse(_ slot: SharedTapSlot, _ generation: Int, path: String, _ reason: String, notifier: EventNotifier,
                        failures: borrowing Mutex<[SharedTakes.Failure]>) -> Open {
        slot.failureReason = reason
        slot.counters.failed.pointee.store(true, ordering: .releasing)
        failures.withLock { $0.append(SharedTakes.Failure(file: path, reason: reason, seconds: 0, droppedFrames: 0)) }
        notifier.signal()
        return Open(slot: slot, generation: generation, path: path, writer: nil, failureTold: true)
    }

    /// A write that failed, told once: to the engine (its slot) and the host.
    private func tellFailure(_ take: inout Open, notifier: EventNotifier, failures: borrowing Mutex<[SharedTakes.Failure]>) {
        guard !take.failureTold, let writer = take.writer, let failure = writer.failure else { return }
        take.failureTold = true
        let reason: String
        switch failure {
        case .writeFailed(_, let why), .finishFailed(_, let why): reason = why
        default: reason = failure.description
        }
        take.slot.failureReason = reason
        let failed = SharedTakes.Failure(file: take.path, reason: reason,
                             seconds: Double(writer.writer.framesWritten) / Double(writer.writer.sampleRate),
                             droppedFrames: take.slot.counters.dropped.pointee.load(ordering: .relaxed))
        failures.withLock { $0.append(failed) }
        notifier.signal()
    }

    /// The take ended: the rest written, the file closed, and (the engine
    /// asked) the slot handed back as closed.
    private mutating func close(_ index: Int, notifier: EventNotifier, failures: borrowing Mutex<[SharedTakes.Failure]>,
                                markClosed: Bool = true) {
        guard var take = open.removeValue(forKey: index) else { return }
        if let writer = take.writer {
            writer.drain()
            do {
                try writer.complete()
            } catch {
                tellFailure(&take, notifier: notifier, failures: failures)
            }
            writer.input.deallocateWakeUps()
        }
        if markClosed { take.slot.markClosed() }
    }

    mutating func engineEnded(_ region: SharedTapRegion, taps: inout [LiveStatus.Tap], notifier: EventNotifier,
                              failures: borrowing Mutex<[SharedTakes.Failure]>) {
        _ = service(region, notifier: notifier, failures: failures)
        for (_, take) in open.sorted(by: { $0.key < $1.key }) {
            guard let writer = take.writer else { continue }
            writer.drain()
            let counters = take.slot.counters
            guard let index = taps.firstIndex(where: { $0.file == take.path && ($0.state == .recording || $0.state == .paused) }),
                  writer.failure == nil else {
                try? writer.complete()
                writer.input.deallocateWakeUps()
                continue
            }
            // Kept open for the next engine; the take's numbers as the dead engine left them.
            waiting[take.path] = writer.writer
            writer.input.deallocateWakeUps()
            // A continued take whose first frame had not come wrote nothing: it stays as last read.
            let before = counters.before.pointee.load(ordering: .acquiring)
            guard before >= 0 else { continue }
            taps[index].seconds = Double(writer.writer.framesWritten) / Double(writer.writer.sampleRate)
            taps[index].droppedFrames = counters.dropped.pointee.load(ordering: .acquiring)
            taps[index].skippedFrames = counters.skipped.pointee.load(ordering: .acquiring)
            let first = counters.startFrame.pointee.load(ordering: .acquiring)
            // A clock the engine had given up on (after a bounce) stays unknown.
            if taps[index].startFrame != nil, first >= 0 { taps[index].startFrame = first &- before }
            taps[index].state = counters.paused.pointee.load(ordering: .acquiring) ? .paused : .recording
        }
        open = [:]
        for slot in region.slots where slot.isClaimed { slot.release() }
    }

    /// Closes the takes no engine went on with.
    mutating func closeWaiting() {
        for file in waiting.values { try? file.close() }
        waiting = [:]
    }

    /// Closes every take (the run ends).
    mutating func closeAll() {
        for take in open.values {
            take.writer?.drain()
            try? take.writer?.complete()
            take.writer?.input.deallocateWakeUps()
        }
        open = [:]
        closeWaiting()
    }
}
