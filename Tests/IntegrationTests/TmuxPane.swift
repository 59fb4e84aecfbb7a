import Foundation
import XCTest

/// A terminal a test types into, as a person would: a detached tmux
/// session on a private server (its own socket, never the user's tmux),
/// running one shell command. Keys go in with `send-keys`, the screen comes
/// back with `capture-pane`; the server is killed at the end.
final class TmuxPane {
    private let socket: String
    private let environment: [String: String]

    /// Starts `command` (a shell command line) in a `width` × `height` terminal.
    init(_ command: String, width: Int = 120, height: Int = 30, environment: [String: String] = [:]) throws {
        socket = FileManager.default.temporaryDirectory.appendingPathComponent("fxtmux-\(UUID().uuidString.prefix(8))").path
        var environment = environment
        environment["TMUX"] = ""  // a test run inside tmux starts its own server all the same
        self.environment = environment
        let result = try tmux(["-f", "/dev/null", "new-session", "-d", "-x", "\(width)", "-y", "\(height)", command])
        guard result.status == 0 else { throw TmuxError(message: "tmux new-session failed: \(result.stderr)") }
    }

    deinit {
        _ = try? tmux(["kill-server"])
        try? FileManager.default.removeItem(atPath: socket)
    }

    struct TmuxError: Error { var message: String }

    /// Types `text` literally (a leading `-` included).
    func type(_ text: String) {
        _ = try? tmux(["send-keys", "-l", "--", text])
    }

    /// Presses keys by tmux's names: `Tab`, `Enter`, `Up`, `C-c`, `C-d`.
    func press(_ keys: String...) {
        _ = try? tmux(["send-keys"] + keys)
    }

    /// The visible lines, trailing spaces removed.
    func lines() -> [String] {
        guard let result = try? tmux(["capture-pane", "-p"]), result.status == 0 else { return [] }
        return result.stdout.split(separator: "\n", omittingEmptySubsequences: false).map {
            String($0.reversed().drop { $0 == " " }.reversed())
        }
    }

    /// The screen as text, for failure messages.
    var screen: String { lines().joined(separator: "\n") }

    /// The cursor's column and row (from 0).
    func cursor() -> (column: Int, row: Int)? {
        guard let result = try? tmux(["display-message", "-p", "#{cursor_x} #{cursor_y}"]) else { return nil }
        let numbers = result.stdout.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    /// Looks at the screen every 50 ms until `condition` holds; false after `seconds`.
    func waitFor(within seconds: Double = 60, _ condition: ([String]) -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition(lines()) {
            if Date() >= deadline { return false }
            usleep(50_000)
        }
        return true
    }

    /// Runs tmux to its end, its output in files. Spawned and waited for
    /// directly: the server `new-session` starts keeps what the client
    /// inherited, and Foundation's `Process` then never sees the client end.
    private func tmux(_ arguments: [String]) throws -> Tools.Result {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("fxtmux-out-\(UUID().uuidString)")
        let output = base.appendingPathExtension("out").path, error = base.appendingPathExtension("err").path
        defer {
            unlink(output)
            unlink(error)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let argv = (["tmux", "-S", socket] + arguments).map { strdup($0) } + [nil]
        let envp = Tools.childEnvironment(environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, argv, envp)
        guard spawned == 0 else { throw TmuxError(message: "tmux did not start: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7F == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F)
        return Tools.Result(status: exited, stdout: (try? String(contentsOfFile: output, encoding: .utf8)) ?? "",
                            stderr: (try? String(contentsOfFile: error, encoding: .utf8)) ?? "")
    }
}
