import Foundation

/// The scheduling policy fxhost asks plugins to give threads they start
/// themselves (Ardour's `threads:schedPolicy` option).
enum ThreadPolicy {
    /// SCHED_FIFO live when this process may use it (root, or a realtime
    /// priority limit above 0); SCHED_OTHER otherwise, and always offline,
    /// where nothing has a deadline.
    static func forPluginThreads(live: Bool) -> Int32 {
        guard live else { return Int32(SCHED_OTHER) }
        var limit = rlimit()
        let allowed = geteuid() == 0 || (getrlimit(__rlimit_resource_t(__RLIMIT_RTPRIO.rawValue), &limit) == 0 && limit.rlim_cur > 0)
        return allowed ? Int32(SCHED_FIFO) : Int32(SCHED_OTHER)
    }
}
