import HostCore
import Synchronization

// Called by: the realtime thread (`measure`, once per chunk of a cycle); the
// control thread reads and resets the peak.

/// A peak meter on one output channel. The peak is kept as the bit pattern
/// of a non-negative Float, whose order is the order of the integers, so an
/// atomic integer `max` keeps it without a compare-exchange loop; the
/// control thread reads and resets it with `exchange`.
package struct LiveMeter {
    package var buffer: UnsafePointer<Float>
    package var peakBits: UnsafeMutablePointer<Atomic<UInt32>>

    package init(buffer: UnsafePointer<Float>, peakBits: UnsafeMutablePointer<Atomic<UInt32>>) {
        self.buffer = buffer
        self.peakBits = peakBits
    }

    @_noLocks
    func measure(frames: Int) {
        let peak = PeakLevel.measure(buffer, frames: frames)
        peakBits.pointee.max(peak.bitPattern, ordering: .relaxed)
    }
}
