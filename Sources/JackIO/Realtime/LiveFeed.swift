import HostCore
import Synchronization

// Called by: the realtime thread (`fill`, once per chunk of a cycle); the
// disk thread fills the ring and the control thread reads the counters.

/// What a file feed's disk thread and the callback share, in raw memory so
/// the callback touches no class reference.
package struct LiveFeedCounters: ~Copyable {
    /// Set by the disk thread once the whole file (and its leading silence)
    /// is in the ring: an empty ring after that is the end, not an underrun.
    package let finished = Atomic<Bool>(false)
    /// Frames the callback had to play as silence because the disk thread was late.
    package let underrunFrames = Atomic<Int>(0)
    /// Frames the callback took from the ring: where the file is on the timeline.
    package let playedFrames = Atomic<Int>(0)
    /// Set by the disk thread just before it sleeps on `LiveFeed.spaceFreed`;
    /// the callback takes it back when it wakes the thread, so the thread is
    /// woken once per refill, not on every cycle (each wake is a syscall and,
    /// on a small machine, a context switch inside the cycle).
    package let diskWaiting = Atomic<Bool>(false)
    /// How often the callback woke the disk thread.
    package let diskWakeups = Atomic<Int>(0)
    /// Where the file stands on the server's frame clock (`LiveSourceClock.make`: its owner frees it).
    package let clock: UnsafeMutablePointer<LiveSourceClock>
    /// The timeline frame the ring's first frame is at (a resumed feed's).
    package let ringStart = Atomic<Int>(0)

    package init(clock: UnsafeMutablePointer<LiveSourceClock>) {
        self.clock = clock
    }
}

/// A file source as the callback sees it: before each chunk it moves frames
/// from the disk thread's ring into the plan's buffers for the source.
package struct LiveFeed {
    package var ring: SPSCFloatRing
    /// `ring.channels` buffers of the plan, one per file channel.
    package var buffers: UnsafePointer<UnsafeMutablePointer<Float>>
    package var counters: UnsafeMutablePointer<LiveFeedCounters>
    /// Wakes the waiting disk thread once there is room to read ahead into.
    package var spaceFreed: PosixSemaphore
    /// The room, in frames, the disk thread reads into at a time.
    package var wakeFrames: Int

    package init(ring: SPSCFloatRing, buffers: UnsafePointer<UnsafeMutablePointer<Float>>,
                counters: UnsafeMutablePointer<LiveFeedCounters>, spaceFreed: PosixSemaphore, wakeFrames: Int) {
        self.ring = ring
        self.buffers = buffers
        self.counters = counters
        self.spaceFreed = spaceFreed
        self.wakeFrames = wakeFrames
    }

    /// Fills `frames` frames, played at JACK frame time `frameTime` (-1:
    /// none); silence where the ring runs dry.
    @_noLocks
    func fill(frames: Int, frameTime: Int = -1) {
        var skipped = 0
        if frameTime >= 0, counters.pointee.clock.pointee.hasTask { skipped = followClock(at: frameTime) }
        // Read the flag first: if it was set, everything is already in the ring.
        let finished = counters.pointee.finished.load(ordering: .acquiring)
        let channels = ring.channels
        var done = 0
        while done < frames {
            let region = ring.readableRegion()
            let count = min(region.count / channels, frames - done)
            guard count > 0, let base = region.baseAddress else { break }
            Interleaving.deinterleave(base, channels: channels, into: UnsafeBufferPointer(start: buffers, count: channels),
                                      at: done, frames: count)
            ring.consume(frames: count)
            done += count
        }
        if done > 0 { counters.pointee.playedFrames.wrappingAdd(done, ordering: .relaxed) }
        // Once finished the disk thread is gone: nobody to wake. A skip may
        // have emptied the ring while it slept: it is woken for that too.
        if done > 0 || skipped > 0, !finished { wakeDiskThreadIfRoom() }
        guard done < frames else { return }
        for channel in 0..<channels {
            (buffers[channel] + done).update(repeating: 0, count: frames - done)
        }
        if !finished {
            counters.pointee.underrunFrames.wrappingAdd(frames - done, ordering: .relaxed)
            counters.pointee.clock.pointee.fellBehind()
        }
    }

    /// The clock's task for a chunk played at frame time `now`: a resumed
    /// feed drops what its ring holds before where its origin puts it.
    /// Returns the frames it dropped.
    @_noLocks
    private func followClock(at now: Int) -> Int {
        let position = counters.pointee.ringStart.load(ordering: .relaxed) + counters.pointee.playedFrames.load(ordering: .relaxed)
        let skipped = counters.pointee.clock.pointee.framesToSkip(now: now, position: position, available: ring.readableFrames)
        guard skipped > 0 else { return 0 }
        ring.consume(frames: skipped)
        counters.pointee.playedFrames.wrappingAdd(skipped, ordering: .relaxed)
        return skipped
    }

    /// Posts `spaceFreed` when the disk thread sleeps and a read's worth of
    /// room is free. The fence pairs with the disk thread's (see
    /// `LiveFilePlayer.sleepUntilRoom`): either this load sees its flag or
    /// its second look at the ring sees the frames just taken, so no wake-up
    /// is lost.
    @_noLocks
    private func wakeDiskThreadIfRoom() {
        atomicMemoryFence(ordering: .sequentiallyConsistent)
        guard counters.pointee.diskWaiting.load(ordering: .relaxed), ring.writableFrames >= wakeFrames,
              counters.pointee.diskWaiting.exchange(false, ordering: .relaxed) else { return }
        counters.pointee.diskWakeups.wrappingAdd(1, ordering: .relaxed)
        spaceFreed.signal()
    }
}
