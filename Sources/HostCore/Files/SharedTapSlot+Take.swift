extension SharedTapSlot {
    /// After the engine that claimed this slot was reaped: writes to the
    /// take's file the frames its realtime thread pushed and its writer had
    /// not yet written, so nothing rendered before a crash is lost, and
    /// returns how many. The counters say which frames the file holds
    /// already (`before` and the file's length against the ring's
    /// positions); a take that failed, or whose writer had not yet placed
    /// its first frame, is left as it is (0). Frees nothing: `release()` after.
    package func finishTake() throws(AudioFileError) -> Int {
        guard isClaimed, let layout else { return 0 }
        let counters = self.counters
        let before = counters.before.pointee.load(ordering: .acquiring)
        guard !counters.failed.pointee.load(ordering: .acquiring), before >= 0 else { return 0 }
        let ring = self.ring
        let (read, write) = ring.positionsNow
        guard read >= 0, read <= write, write - read <= layout.frames else { return 0 }
        let writer = try AudioFileWriter(continuing: layout.path, channels: layout.channels, sampleRate: layout.sampleRate)
        // The file holds the ring's frames up to here: all the writer read, and perhaps some it had not yet released.
        let held = writer.framesWritten - before
        guard held >= read, held <= write else {
            writer.abort()  // not this ring's take any more: left alone
            return 0
        }
        do {
            for run in ring.frames(from: held, count: write - held) where run.count > 0 {
                try writer.write(interleaved: run.baseAddress!, frames: run.count / layout.channels)
            }
            try writer.close()
        } catch {
            writer.closeAfterFailure()
            throw error
        }
        counters.written.pointee.add(write - held, ordering: .relaxed)
        return write - held
    }
}
