import CCoreShim
import Glibc

/// Called by: the render's own thread, off the realtime thread.
///
/// What a crash says (C, in CCoreShim's CrashReport.c: a signal handler can
/// reach nothing else): one sentence on stderr naming the node, its plugin,
/// the LV2 call and the signal, and where in the input it happened; the
/// partial files removed; the backtrace in a log file the sentence names;
/// exit status 1. The ops that call plugin code store their node (a row of
/// the names table a `RenderJob` registers) and the call in a thread's
/// culprit cell; the LV2 side marks its own calls (instantiate, work()...).
package enum CrashReport {
    /// What the sentence says of a render's files, which are all partial
    /// until it succeeds.
    package static let renderAftermath = "nothing was written"
    /// The longest name the sentence quotes, in bytes.
    static let nameBytes = 200

    /// Installs the crash handler in this process for an offline render
    /// (`fxhost render`, or a process rendering one file of a batch): from
    /// here on, a `RenderJob` registers its names, position and partial
    /// files, and a crash is one sentence. Call once, early, on the main
    /// thread; later calls do nothing. `stopsInsteadOfExiting`: after the
    /// report the process stops (SIGSTOP) rather than ends, for its parent
    /// to take a freewheeling JACK server back to realtime first.
    package static func installForRender(stopsInsteadOfExiting: Bool = false) {
        Self.stopsInsteadOfExiting(stopsInsteadOfExiting)
        fxhost_crash_install(renderAftermath, nil)
    }

    /// What the sentence says of a live run's takes: written as they play,
    /// they stay readable up to the crash.
    package static let liveAftermath = "every take is kept up to the crash"
    /// The same after a hang the live engine's hang watch reports.
    package static let liveHangAftermath = "every take is kept up to the hang"

    /// Installs the crash handler for `fxhost run`: a plugin's crash is one
    /// sentence naming the node and the call (the live plans register their
    /// names), not a backtrace on the terminal; so is a hang, once the live
    /// engine's watch interrupts the stuck thread. Call once, early, on the
    /// main thread, before any other thread starts.
    package static func installForLive() {
        fxhost_crash_install(liveAftermath, liveHangAftermath)
    }

    /// Installs the handler for an engine process a supervisor watches:
    /// the report goes to `descriptor` (its crash pipe), as a line of
    /// fields and the sentence, instead of the terminal.
    package static func installForSupervisedEngine(reportingTo descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)  // nothing a plugin starts keeps the supervisor's pipe
        fxhost_crash_report_to(descriptor)
        fxhost_crash_install(liveAftermath, liveHangAftermath)
    }

    /// While `on` (a live bounce freewheels the server), a crash stops the
    /// process after its report instead of ending it: a supervisor holding
    /// a client of its own takes the server out of freewheel, then kills it.
    package static func stopsInsteadOfExiting(_ on: Bool) {
        fxhost_crash_set_stop_instead_of_exit(on ? 1 : 0)
    }

    /// Whether the handler is installed (then jobs register what it says).
    package static var isInstalled: Bool { fxhost_crash_installed() != 0 }

    /// Registers `nodes` (a plan's, in the order its ops number them) as
    /// the names table.
    package static func register(nodes: [PlanNode]) {
        let count = min(nodes.count, Int(fxhost_crash_names_capacity()))
        fxhost_crash_set_names_count(0)
        for (index, node) in nodes.prefix(count).enumerated() {
            fxhost_crash_set_name(Int32(index), printable(node.name), node.plugin.map(printable) ?? "")
        }
        fxhost_crash_set_names_count(Int32(count))
    }

    /// Names the node this thread is setting up (instances made, state
    /// restored), before any plan numbers it.
    package static func settingUp(node: String, plugin: String) {
        fxhost_culprit_name_setup(printable(node), printable(plugin))
    }

    /// This thread is in no plugin call.
    package static func leave() { fxhost_culprit_leave() }

    /// A render at `sampleRate` starts: crashes say where in the input.
    package static func beginRender(sampleRate: Double) {
        let rate = sampleRate.isFinite && sampleRate >= 1 && sampleRate < 1e9 ? Int64(sampleRate.rounded()) : 0
        fxhost_crash_begin_render(rate)
    }

    /// The render's files are complete and in place: a crash from here on
    /// (a plugin's `cleanup()`) says so, not that nothing was written.
    package static func outputsWritten() { fxhost_crash_outputs_written() }

    /// The render ended (or failed): crashes no longer say a time.
    package static func endRender() { fxhost_crash_end_render() }

    /// A name from a patch or a plugin's data, as the terminal may show it:
    /// control characters escaped (`TerminalText`), cut after `nameBytes` bytes (then "…" follows).
    static func printable(_ name: String) -> String {
        var result = ""
        var bytes = 0
        for character in TerminalText.escaped(name) {
            bytes += character.utf8.count
            guard bytes <= nameBytes else { return result + "…" }
            result.append(character)
        }
        return result
    }
}
