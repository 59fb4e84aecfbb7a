import CLilv
import CLV2Shim
import Foundation
import HostCore

/// What every instance of a unit points into whatever its format: the input
/// control values (port index → value, one block all instances read) and the
/// log feature. Instances hold it, so it outlives the last of them.
final class UnitMemory {
    let controls: UnsafeMutablePointer<Float>
    let log: UnsafeMutablePointer<LV2_Log_Log>?

    init(portCount: Int, log: UnsafeMutablePointer<LV2_Log_Log>?) {
        controls = .allocate(capacity: max(portCount, 1))
        controls.initialize(repeating: 0, count: max(portCount, 1))
        self.log = log
    }

    deinit {
        controls.deallocate()
        fxhost_log_destroy(log)
    }
}
