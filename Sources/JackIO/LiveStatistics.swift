import CJack
import HostCore
import Glibc
import Synchronization

/// Counters the realtime thread keeps.
package struct LiveStatistics: Equatable {
    package var cycles: Int
    package var frames: Int
    package var xruns: Int
    /// Programs taken by the realtime thread (the first one included).
    package var programSwaps: Int
    package var commandsApplied: Int
    /// Total time inside the process callback.
    package var callbackNanoseconds: Int
    /// The part of it spent in the program's render (units included).
    package var renderNanoseconds: Int

    /// Mean time per cycle the host spends outside the program: copying
    /// ports, commands, swaps, counters.
    package var hostOverheadNanosecondsPerCycle: Double {
        cycles == 0 ? 0 : Double(callbackNanoseconds - renderNanoseconds) / Double(cycles)
    }
}
