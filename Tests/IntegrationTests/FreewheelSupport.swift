import CJack
import Foundation
import JackIO
import Synchronization

/// A second client on a test server that watches it: counts process cycles
/// and freewheel notifications, so a test can measure whether the server
/// runs in realtime (about rate/buffer cycles a second) or freewheels.
final class ServerObserver {
    struct Counters: ~Copyable {
        let cycles = Atomic<Int>(0)
        let freewheelStarts = Atomic<Int>(0)
        let freewheelStops = Atomic<Int>(0)
        let freewheeling = Atomic<Bool>(false)
    }

    let client: JackClient
    private let counters: UnsafeMutablePointer<Counters>

    init(server: String) throws {
        client = try JackClient(name: "observer", server: server)
        counters = .allocate(capacity: 1)
        counters.initialize(to: Counters())
        let handle = try client.handle()
        let context = UnsafeMutableRawPointer(counters)
        jack_set_process_callback(handle, { _, context in
            context!.assumingMemoryBound(to: Counters.self).pointee.cycles.wrappingAdd(1, ordering: .relaxed)
            return 0
        }, context)
        jack_set_freewheel_callback(handle, { starting, context in
            let counters = context!.assumingMemoryBound(to: Counters.self)
            counters.pointee.freewheeling.store(starting != 0, ordering: .relaxed)
            if starting != 0 {
                counters.pointee.freewheelStarts.wrappingAdd(1, ordering: .relaxed)
            } else {
                counters.pointee.freewheelStops.wrappingAdd(1, ordering: .relaxed)
            }
        }, context)
        try client.activate()
    }

    deinit {
        client.close()
        counters.deinitialize(count: 1)
        counters.deallocate()
    }

    var freewheelStarts: Int { counters.pointee.freewheelStarts.load(ordering: .relaxed) }
    var freewheelStops: Int { counters.pointee.freewheelStops.load(ordering: .relaxed) }
    var freewheeling: Bool { counters.pointee.freewheeling.load(ordering: .relaxed) }

    /// Process cycles per second, counted over `seconds`.
    func cycleRate(over seconds: Double = 0.5) -> Double {
        let before = counters.pointee.cycles.load(ordering: .relaxed)
        usleep(UInt32(seconds * 1e6))
        return Double(counters.pointee.cycles.load(ordering: .relaxed) - before) / seconds
    }

    /// Measures the cycle rate over windows of `seconds` until one satisfies
    /// `condition` (a busy machine may stall a window or two), for at most
    /// `timeout` seconds; returns whether one did.
    func waitForCycleRate(over seconds: Double = 0.5, timeout: Double = 60,
                          _ condition: (Double) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        repeat {
            if condition(cycleRate(over: seconds)) { return true }
        } while Date() < deadline
        return false
    }

    /// Waits until `condition` holds or `timeout` passes; returns whether it held.
    func wait(timeout: Double, until condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !condition() {
            if Date() > deadline { return false }
            usleep(5_000)
        }
        return true
    }
}
