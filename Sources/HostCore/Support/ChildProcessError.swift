/// Why a child process could not start (`posix_spawn`'s error, as text).
package struct ChildProcessError: Error {
    package let reason: String
}
