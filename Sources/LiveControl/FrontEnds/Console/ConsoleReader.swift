import JackIO
import Foundation
import HostCore
import Synchronization

/// Reads console lines from stdin on a thread of its own, so the run loop
/// never blocks on the user; each line wakes the host (`wake`), which takes
/// them with `takeLines()`.
/// Only started when stdin is a terminal or a pipe (not /dev/null, not a file).
final class ConsoleReader: Sendable {
    private let lines = Mutex<[String]>([])
    private let wake: @Sendable () -> Void

    init(wake: @escaping @Sendable () -> Void = {}) {
        self.wake = wake
    }

    /// A terminal we are in the foreground of, or a pipe. A background job
    /// (`fxhost run patch.yaml &`) must not read its terminal: the shell
    /// would stop the whole process, audio included.
    static var standardInputIsConsole: Bool {
        var info = stat()
        guard fstat(STDIN_FILENO, &info) == 0 else { return false }
        let type = info.st_mode & S_IFMT
        if isatty(STDIN_FILENO) == 1 { return tcgetpgrp(STDIN_FILENO) == getpgrp() }
        return type == S_IFIFO || type == S_IFSOCK
    }

    func start() {
        // Moved to the background later (Ctrl-Z, bg), a read would stop the
        // process with SIGTTIN; ignored, the read fails and the console ends
        // while the audio plays on.
        if isatty(STDIN_FILENO) == 1 { signal(SIGTTIN, SIG_IGN) }
        // Detached: it reads until stdin ends, and the process may exit first.
        // If it cannot start there is no console; the audio plays on.
        do {
            try PosixThread(name: "fxhost console") { [self] in
                while let line = readLine() {
                    lines.withLock { $0.append(line) }
                    wake()
                }
            }.detach()
        } catch {
            Terminal.writeAll("fxhost: \(error); commands typed here are ignored, the audio plays on\n", to: STDERR_FILENO)
        }
    }

    func takeLines() -> [String] {
        lines.withLock { taken in
            defer { taken = [] }
            return taken
        }
    }

}
