import CLilv
import Foundation
import HostCore

/// Memory one unit shares between all its instances for one render format.
struct SharedPortMemory {
    /// The unit's input controls and log feature.
    let unit: UnitMemory
    /// Silence, scratch and the freewheeling value, for one format.
    let format: FormatMemory
    var controls: UnsafeMutablePointer<Float> { unit.controls }
    var silence: UnsafeMutablePointer<Float> { format.silence }
    var scratch: UnsafeMutablePointer<Float> { format.scratch }
}
