import HostCore

/// What an engine's crash handler wrote on its crash pipe: a line of
/// tab-separated fields (`crash`, node, plugin, call, signal; empty where
/// unknown), then its sentence. Parsed from the child's bytes, which are
/// bounded and may be cut anywhere.
package struct EngineCrashReport: Equatable, Sendable {
    package var node: String?
    package var plugin: String?
    package var call: String?
    package var signal: String?
    /// Where the backtrace was saved ("/tmp/fxhost-crash-PID.log"), if the sentence says.
    package var backtrace: String?

    package init?(_ text: String) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let record = lines.first, record.hasPrefix("crash\t") else { return nil }
        let fields = record.split(separator: "\t", omittingEmptySubsequences: false).dropFirst().map(String.init)
        func field(_ index: Int) -> String? { index < fields.count && !fields[index].isEmpty ? fields[index] : nil }
        node = field(0)
        plugin = field(1)
        call = field(2)
        signal = field(3)
        let marker = "the backtrace is in "
        if lines.count > 1, let range = lines[1].range(of: marker) {
            backtrace = String(lines[1][range.upperBound...])
        }
    }
}
