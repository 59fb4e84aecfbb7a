import Foundation

/// The scheduling policy fxhost asks plugins to give threads they start
/// themselves (Ardour's `threads:schedPolicy` option).
enum ThreadPolicy {
    /// SCHED_FIFO live when this process may make such threads; SCHED_OTHER
    /// otherwise, and always offline, where nothing has a deadline.
    static func forPluginThreads(live: Bool) -> Int32 {
        live && mayStartRealtimeThreads ? Int32(SCHED_FIFO) : Int32(SCHED_OTHER)
    }

    /// Whether a SCHED_FIFO thread can be made here, found by making one
    /// (as zita-convolver will): a realtime priority limit, or root, is not
    /// enough in a container without CAP_SYS_NICE. Asked once.
    static let mayStartRealtimeThreads: Bool = {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setinheritsched(&attributes, Int32(PTHREAD_EXPLICIT_SCHED))
        pthread_attr_setschedpolicy(&attributes, SCHED_FIFO)
        var parameter = sched_param(sched_priority: sched_get_priority_min(SCHED_FIFO))
        pthread_attr_setschedparam(&attributes, &parameter)
        var thread = pthread_t()
        guard pthread_create(&thread, &attributes, { _ in nil }, nil) == 0 else { return false }
        pthread_join(thread, nil)
        return true
    }()
}
