import CCoreShim

/// Called by: whichever thread calls into a plugin.
///
/// The LV2 side of the culprit cell (`CrashReport`): marks which LV2 call
/// the thread is in (instantiate, activate, work(), a state save or
/// restore, cleanup) around `body`, then puts back the call it was in, so a
/// worker's work() run inside run() offline returns to `run()`. The node is
/// the one the caller set (a render's op, or the node being set up).
enum PluginCall {
    static func marked<Result>(_ call: Int32, _ body: () throws -> Result) rethrows -> Result {
        let previous = fxhost_culprit_swap_call(call)
        defer { _ = fxhost_culprit_swap_call(previous) }
        return try body()
    }
}
