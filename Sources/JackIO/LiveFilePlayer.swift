import Foundation
import HostCore
import Synchronization

/// Plays a file source in realtime: a disk thread reads ahead into a ring
/// that the callback drains through a `LiveFeed`, so the callback never
/// touches the disk. The disk thread sleeps on a semaphore when the ring is
/// full, and the callback wakes it once a chunk's worth of room is free. A
/// start offset is leading silence written through the same ring, so the
/// ring is the feed's only clock.
///
/// Life cycle: `init` (opens the file) → `prime()` (fills the ring before the
/// client starts) → `start()` (the disk thread keeps it full) → `stop()`.
final class LiveFilePlayer: @unchecked Sendable {
    let node: String
    let path: String
    let ring: SPSCFloatRing
    let counters: UnsafeMutablePointer<LiveFeedCounters>
    /// Signalled by the callback once a chunk's worth of room is free, and by `stop()`.
    let spaceFreed = PosixSemaphore()
    let sampleRate: Int

    private let reader: AudioFileReader
    /// Frames read from the file at a time: the room the callback waits for before it wakes this thread.
    let chunkFrames = 4096
    private let scratch: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    /// Frames of silence still to write before the file starts.
    private var leadingSilence: Int
    private var reachedEnd = false
    /// The supervisor's region its clock lies in (nil: its own memory).
    private let clockRegion: SharedTapRegion?
    /// A resumed player not yet placed on its timeline (`prime(at:)`).
    private var resumePending = false
    private let stopRequested = Atomic<Bool>(false)
    private var thread: PosixThread?

    /// Opens `source.path`; its rate must be the server's (fxhost does not
    /// resample). `resumingFrom`: the origin a crashed engine's player had
    /// (`LiveFeedCounters.origin`): this one plays on where that one would
    /// be now, as if no crash had come between.
    init(node: String, source: FilePlayerSource, sampleRate: Int, ringSeconds: Double = 2,
         resumingFrom origin: Int? = nil, clockRegion: SharedTapRegion? = nil) throws(LiveSessionError) {
        let reader: AudioFileReader
        do {
            reader = try AudioFileReader(path: source.path)
        } catch {
            throw .file(error)
        }
        guard reader.sampleRate == sampleRate else {
            throw .sampleRate(SampleRateMismatch(path: source.path, fileRate: reader.sampleRate, rate: sampleRate,
                                                 runner: "the JACK server"))
        }
        self.reader = reader
        self.node = node
        self.path = source.path
        self.sampleRate = sampleRate
        ring = SPSCFloatRing(channels: reader.channels, capacity: max(Int(ringSeconds * Double(sampleRate)), 2 * chunkFrames))
        counters = .allocate(capacity: 1)
        counters.initialize(to: LiveFeedCounters(clock: LiveSourceClock.make(resumingFrom: origin, name: node, region: clockRegion)))
        self.clockRegion = clockRegion
        scratch = .allocate(capacity: reader.channels)
        for channel in 0..<reader.channels {
            let buffer = UnsafeMutablePointer<Float>.allocate(capacity: chunkFrames)
            buffer.initialize(repeating: 0, count: chunkFrames)
            scratch[channel] = buffer
        }
        leadingSilence = max(0, Int((source.startSeconds * Double(sampleRate)).rounded()))
        resumePending = origin != nil
    }

    deinit {
        stop()
        for buffer in scratch { buffer.deallocate() }
        scratch.deallocate()
        ring.deallocate()
        spaceFreed.deallocate()
        LiveSourceClock.free(counters.pointee.clock, region: clockRegion)
        counters.deinitialize(count: 1)
        counters.deallocate()
    }

    var channels: Int { ring.channels }
    var underrunFrames: Int { counters.pointee.underrunFrames.load(ordering: .relaxed) }
    var playedFrames: Int { counters.pointee.playedFrames.load(ordering: .relaxed) }
    var finished: Bool { counters.pointee.finished.load(ordering: .relaxed) && ring.readableFrames == 0 }

    /// Fills the ring as far as it goes, on this thread. A resumed player
    /// first moves to where its origin puts the server's frame time `now`
    /// (the callback's first fills then drop the frames the start took).
    func prime(at now: Int? = nil) {
        if resumePending, let now, let position = counters.pointee.clock.pointee.position(at: now) {
            resumePending = false
            // Early by half a ring: `now` is JACK's estimate, which runs
            // ahead of a late server, and the fills can only skip forward.
            place(at: max(0, position - ring.capacity / 2))
        }
        while !reachedEnd && ring.writableFrames >= chunkFrames { readChunk() }
    }

    /// Starts the ring `position` frames into the timeline: into the
    /// leading silence, into the file, or past its end.
    private func place(at position: Int) {
        counters.pointee.ringStart.store(position, ordering: .relaxed)
        if position <= leadingSilence {
            leadingSilence -= position
            return
        }
        let into = position - leadingSilence
        leadingSilence = 0
        if (try? reader.seek(toFrame: into)) == nil {
            // Past the end (or a file that cannot seek): it has played out.
            reachedEnd = true
            counters.pointee.finished.store(true, ordering: .releasing)
        }
    }

    /// The file no longer plays in step with the server's clock (a bounce
    /// played meanwhile, a new server): the callback notes its origin anew.
    func breakClock() { counters.pointee.clock.pointee.fellBehind() }

    /// See `LiveSourceClock.origin`; nil until known.
    var origin: Int? { counters.pointee.clock.pointee.knownOrigin }

    /// Starts the disk thread (once).
    func start() throws(LiveSessionError) {
        guard thread == nil else { return }
        do {
            thread = try PosixThread(name: "fxhost disk") { [self] in readUntilStopped() }
        } catch {
            throw .file(.cannotStartReader(path: path, reason: error.reason))
        }
    }

    func stop() {
        guard let thread else { return }
        stopRequested.store(true, ordering: .releasing)
        spaceFreed.signal()
        thread.join()
        self.thread = nil
    }

    /// The disk thread: keeps the ring full until the file ends or `stop()`.
    private func readUntilStopped() {
        while !stopRequested.load(ordering: .acquiring) && !reachedEnd {
            if ring.writableFrames >= chunkFrames {
                readChunk()
            } else {
                sleepUntilRoom()
            }
        }
    }

    /// Raises the waiting flag, then looks at the ring once more before
    /// sleeping: the fence pairs with the callback's (`LiveFeed`), so frames
    /// it took before it could see the flag are seen here. A wake-up that
    /// races this second look leaves one extra post: the loop looks again.
    private func sleepUntilRoom() {
        counters.pointee.diskWaiting.store(true, ordering: .relaxed)
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        if ring.writableFrames >= chunkFrames || stopRequested.load(ordering: .acquiring) {
            counters.pointee.diskWaiting.store(false, ordering: .relaxed)
            return
        }
        spaceFreed.wait()
    }

    /// One chunk of leading silence or file into the ring (which has room for it).
    private func readChunk() {
        let frames: Int
        var endOfFile = false
        if leadingSilence > 0 {
            frames = min(leadingSilence, chunkFrames)
            for buffer in scratch { buffer.update(repeating: 0, count: frames) }
            leadingSilence -= frames
        } else {
            frames = reader.read(into: UnsafeBufferPointer(scratch), frames: chunkFrames)
            endOfFile = frames < chunkFrames  // a short read is the end of the file
        }
        if frames > 0 {
            scratch.withMemoryRebound(to: UnsafePointer<Float>.self) { pointers in
                _ = ring.write(channels: UnsafeBufferPointer(pointers), frames: frames)
            }
        }
        if endOfFile {
            reachedEnd = true
            counters.pointee.finished.store(true, ordering: .releasing)
        }
    }
}
