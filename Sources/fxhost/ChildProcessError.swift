/// Why a child process could not start (`posix_spawn`'s error, as text).
struct ChildProcessError: Error {
    let reason: String
}
