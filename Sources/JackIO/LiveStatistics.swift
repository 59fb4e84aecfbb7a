import CJack
import HostCore
import Glibc
import Synchronization

/// Counters the realtime thread keeps.
public struct LiveStatistics: Equatable {
    public var cycles: Int
    public var frames: Int
    public var xruns: Int
    /// Programs taken by the realtime thread (the first one included).
    public var programSwaps: Int
    public var commandsApplied: Int
    /// Total time inside the process callback.
    public var callbackNanoseconds: Int
    /// The part of it spent in the program's render (units included).
    public var renderNanoseconds: Int

    /// Mean time per cycle the host spends outside the program: copying
    /// ports, commands, swaps, counters.
    public var hostOverheadNanosecondsPerCycle: Double {
        cycles == 0 ? 0 : Double(callbackNanoseconds - renderNanoseconds) / Double(cycles)
    }
}
