import Glibc
import CCoreShim

/// Starts another process with `posix_spawn`, as fxhost's helpers need it:
/// this executable again (`render --batch-worker`, `--freewheel-worker`),
/// every signal at its default action and none blocked (the parent may be
/// catching SIGINT and SIGTERM, or ignoring SIGPIPE), the parent's
/// environment, standard streams replaced where given (nil: inherited),
/// and no other descriptor of the parent's but those it keeps (its JACK sockets, a copy of
/// its stdout a reader waits to see closed).
package enum ChildProcess {
    /// This executable, whatever path started it.
    package static let thisExecutable = "/proc/self/exe"

    /// How a child ended, or stopped, as <sys/wait.h>'s macros read a wait status.
    package enum Ending: Equatable, Sendable {
        case exited(Int32)
        case signalled(Int32)
        case stopped(Int32)

        package init(waitStatus status: Int32) {
            if status & 0xff == 0x7f {
                self = .stopped((status >> 8) & 0xff)
            } else if status & 0x7f != 0 {
                self = .signalled(status & 0x7f)
            } else {
                self = .exited((status >> 8) & 0xff)
            }
        }

        /// "exit status 1", "SIGSEGV", "stopped by SIGSTOP".
        package var description: String {
            switch self {
            case .exited(let status): "exit status \(status)"
            case .signalled(let signal): signalName(signal)
            case .stopped(let signal): "stopped by \(signalName(signal))"
            }
        }
    }

    /// A pipe whose ends are close-on-exec from the start: (read, write).
    package static func pipe() throws(ChildProcessError) -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        guard fxhost_pipe_cloexec(&ends) == 0 else { throw ChildProcessError(reason: String(cString: strerror(errno))) }
        return (ends[0], ends[1])
    }

    /// This process's own arguments (argv[0] included) with `flags` added
    /// where options still count: before a `--`, if one ends them.
    package static func thisCommand(adding flags: [String]) -> [String] {
        command(CommandLine.arguments, adding: flags)
    }

    /// `arguments` with `flags` added before a `--`, if one ends the options.
    package static func command(_ arguments: [String], adding flags: [String]) -> [String] {
        var result = arguments
        result.insert(contentsOf: flags, at: result.firstIndex(of: "--") ?? result.endIndex)
        return result
    }

    /// Starts `executable` with `arguments` (argv[0] included); returns its pid,
    /// or throws the `posix_spawn` error's text.
    /// `keeping` passes more of this process's descriptors, each as the
    /// child's descriptor number given (from 3 on).
    /// `blocking` signals start blocked in the child (it ignores them, then
    /// unblocks them: none can end it before it is ready to).
    package static func start(_ executable: String, arguments: [String], standardInput: Int32? = nil,
                              standardOutput: Int32? = nil, standardError: Int32? = nil,
                              keeping: [(descriptor: Int32, as: Int32)] = [],
                              blocking: [Int32] = []) throws(ChildProcessError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(standardInput, STDIN_FILENO), (standardOutput, STDOUT_FILENO),
                                     (standardError, STDERR_FILENO)] {
            if let descriptor { posix_spawn_file_actions_adddup2(&actions, descriptor, target) }
        }
        // A descriptor that is also a target is copied out of the way first,
        // so no dup2 replaces one still to be passed.
        var copies: [Int32] = []
        defer { for copy in copies { close(copy) } }
        let targets = Set(keeping.map(\.as))
        for kept in keeping {
            var source = kept.descriptor
            if targets.contains(source) {
                source = fcntl(source, F_DUPFD_CLOEXEC, 64)
                guard source >= 0 else { throw ChildProcessError(reason: String(cString: strerror(errno))) }
                copies.append(source)
            }
            posix_spawn_file_actions_adddup2(&actions, source, kept.as)
        }
        fxhost_spawn_close_from(&actions, (keeping.map(\.as).max() ?? 2) + 1)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGHUP] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in blocking { sigaddset(&mask, number) }
        posix_spawnattr_setsigmask(&attributes, &mask)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var child: pid_t = 0
        let status = posix_spawn(&child, executable, &actions, &attributes, argv, environ)
        guard status == 0 else { throw ChildProcessError(reason: String(cString: strerror(status))) }
        return child
    }
}
