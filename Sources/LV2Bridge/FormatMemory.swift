import CLilv
import Foundation
import HostCore

/// What the instances of one format share and the instances of another
/// must not see: `maxBlockFrames` zeros for unused audio/CV inputs, as many
/// floats for unused outputs to write into, and the value of the
/// lv2:freeWheeling port (1 offline, 0 live), so preparing an offline
/// render does not make live instances freewheel. Every instance of the
/// format holds it, so it lives as long as the last of them.
final class FormatMemory {
    let silence: UnsafeMutablePointer<Float>
    let scratch: UnsafeMutablePointer<Float>
    let freeWheeling: UnsafeMutablePointer<Float>

    init(_ format: RenderFormat) {
        let frames = max(format.maxBlockFrames, 1)
        silence = .allocate(capacity: frames)
        silence.initialize(repeating: 0, count: frames)
        scratch = .allocate(capacity: frames)
        scratch.initialize(repeating: 0, count: frames)
        freeWheeling = .allocate(capacity: 1)
        freeWheeling.initialize(to: format.mode == .offline ? 1 : 0)
    }

    deinit {
        silence.deallocate()
        scratch.deallocate()
        freeWheeling.deallocate()
    }
}
