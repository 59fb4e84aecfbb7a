import Foundation
import HostCore

/// A live buffer-size change without new instances, for plugins that take
/// a new block length through LV2's options interface: they keep their
/// state (a reverb's tail, a loaded impulse response, a worker's files).
extension LV2Unit: BlockSizeAdjustable {
    package func adjustBlockSize(to newFormat: RenderFormat) throws(UnitError) -> Bool {
        guard let format, newFormat != format, !instances.isEmpty,
              newFormat.sampleRate == format.sampleRate, newFormat.mode == format.mode,
              // A block of 1 frame is announced as fixedBlockLength, which cannot change.
              format.maxBlockFrames > 1, newFormat.maxBlockFrames > 1 else { return false }
        // Instances of that format still held by a plan are taken up again by prepareInstances.
        if let earlier, earlier.format == newFormat, earlier.aliveInstances != nil { return false }
        guard instances.allSatisfy(\.hasOptionsInterface) else { return false }
        // set() is in LV2's instantiation class: no work() may overlap it, so
        // the live worker threads stop (their requests stay queued) until it is done.
        let instances = self.instances
        for instance in instances { instance.worker?.stop() }
        let kept = tellBlockSize(from: format, to: newFormat)
        for instance in instances { try instance.startWorker() }
        return kept
    }

    /// Tells every instance the new length and moves them to `newFormat`;
    /// false, with nothing moved, when one refuses.
    private func tellBlockSize(from format: RenderFormat, to newFormat: RenderFormat) -> Bool {
        for (index, instance) in instances.enumerated()
        where !instance.setBlockLength(newFormat.maxBlockFrames, urids: world.urids) {
            // New instances come instead; those told already are told their
            // old length back, as the plan that holds them (and may be
            // played again if the new one cannot be built) expects.
            for told in instances[..<index] { _ = told.setBlockLength(format.maxBlockFrames, urids: world.urids) }
            return false
        }
        let memory = FormatMemory(newFormat)
        for instance in instances { instance.adopt(memory) }
        // The latency may follow the block length (a block-based
        // convolver's can). Measured as for a new instance, but without the
        // reset that ends that probe: deactivate and activate may drop what
        // the plugin holds, and keeping that is the point. Work the run asks
        // for waits in the queue for the restarted worker.
        if reportsLatency {
            for instance in instances { measureLatency(instance, frames: newFormat.maxBlockFrames, reset: false) }
        }
        self.formatMemory = memory
        self.format = newFormat
        return true
    }
}
