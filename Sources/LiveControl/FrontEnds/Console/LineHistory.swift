import HostCore
import JackIO
import Foundation

/// The console's earlier commands, oldest first, at most `limit` of them,
/// kept across runs in a file of one command per line
/// (`$XDG_STATE_HOME/fxhost/history`, else `~/.local/state/fxhost/history`).
/// Reading or writing that file may fail (no home, a read-only disk): the
/// prompt then simply remembers less, and says nothing.
struct LineHistory: Equatable {
    private(set) var entries: [String]
    let limit: Int

    init(_ entries: [String] = [], limit: Int = 500) {
        self.limit = limit
        self.entries = Array(entries.suffix(limit))
    }

    /// A blank line, or the same line as the last one, adds nothing.
    mutating func add(_ line: String) {
        guard !line.allSatisfy(\.isWhitespace), line != entries.last else { return }
        entries.append(line)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
    }

    /// Where the history lives for this environment; nil without a home.
    static func file(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("fxhost/history")
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return URL(fileURLWithPath: home).appendingPathComponent(".local/state/fxhost/history")
    }

    /// The history in `file`, empty when there is none or it cannot be read.
    static func load(from file: URL?, limit: Int = 500) -> LineHistory {
        guard let file, let text = try? String(contentsOf: file, encoding: .utf8) else { return LineHistory(limit: limit) }
        return LineHistory(text.split(separator: "\n").map(String.init), limit: limit)
    }

    /// Writes every entry to `file` through a temporary file and a rename,
    /// so a run that stops halfway leaves the old history whole.
    func save(to file: URL?) {
        guard let file else { return }
        let folder = file.deletingLastPathComponent()
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let text = entries.map { $0 + "\n" }.joined()
        try? Data(text.utf8).write(to: file, options: .atomic)
    }
}
