import Foundation

/// JACK's shared-memory server registry has eight slots. jack2 frees a slot
/// when its server exits cleanly, or when a server of the same name starts
/// again; a server that was killed (tests kill servers on purpose) keeps its
/// slot. Test servers have unique names, so killed ones would fill the
/// registry until no server can start ("Too many servers already active").
///
/// When no jackd process runs at all, every entry is stale and JACK's shared
/// memory can go; the next server makes a new registry. With any jackd
/// running nothing is touched. It is done at most once per process, before
/// its first server: libjack maps the registry once and keeps the mapping,
/// so replacing it under a process that has used JACK would strand it.
enum StaleJackRegistry {
    static let sharedMemoryFolder = "/dev/shm"

    private static let clearOnce: Void = clearIfNoServerRuns()

    /// The first call in a process clears stale JACK shared memory; later calls do nothing.
    static func clearOnceIfNoServerRuns() { _ = clearOnce }

    /// Removes JACK's shared memory if no JACK server process is alive.
    static func clearIfNoServerRuns() {
        guard !jackServerIsRunning() else { return }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: sharedMemoryFolder)) ?? []
        for name in names where name == "jack-shm-registry" || name.hasPrefix("jack_") || name.hasPrefix("jack-") {
            unlink("\(sharedMemoryFolder)/\(name)")
        }
    }

    /// Any live process named jackd (or jackdmp) on the machine; a zombie
    /// (exited, not yet reaped) holds no server.
    static func jackServerIsRunning() -> Bool {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.contains { entry in
            guard entry.allSatisfy(\.isNumber),
                  let command = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8),
                  ["jackd", "jackdmp"].contains(command.trimmingCharacters(in: .whitespacesAndNewlines)),
                  let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let afterName = stat.range(of: ") ", options: .backwards) else { return false }
            return !stat[afterName.upperBound...].hasPrefix("Z")
        }
    }
}
