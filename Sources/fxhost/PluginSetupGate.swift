import LiveControl
import Glibc

/// Keeps the renders of a batch inside LV2's threading rules. Setting a
/// render up and tearing it down (lilv, `instantiate`, `activate`,
/// `extension_data`, `cleanup`) holds the gate alone; rendering a block
/// shares it with the other renders' blocks. LV2 forbids calling an
/// instantiation function concurrently with another one, and a discovery
/// function (`lv2_descriptor`, `extension_data`) concurrently with anything
/// else in the same library, while `run()` of different instances may
/// overlap. Blocks are short, so set-up waits at most one block per job; a
/// waiting set-up goes before new blocks (writers first), so steady
/// rendering cannot starve it.
final class PluginSetupGate {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        var attributes = pthread_rwlockattr_t()
        pthread_rwlockattr_init(&attributes)
        pthread_rwlockattr_setkind_np(&attributes, Int32(PTHREAD_RWLOCK_PREFER_WRITER_NONRECURSIVE_NP))
        pthread_rwlock_init(lock, &attributes)
        pthread_rwlockattr_destroy(&attributes)
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    /// Runs `body` with no block rendering and no other set-up.
    func alone<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_wrlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    /// Runs `body` (one block) beside the other renders' blocks.
    func shared<T>(_ body: () throws -> T) rethrows -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
