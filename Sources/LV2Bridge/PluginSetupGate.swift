import Glibc
import HostCore
import Synchronization

/// Keeps plugin work on several threads inside LV2's threading rules.
/// Setting plugins up and tearing them down (`instantiate`, `activate`,
/// `extension_data`, a state restore, `deactivate`, `cleanup`) holds the
/// gate alone; rendering a block shares it with other threads' blocks. LV2
/// forbids calling an instantiation function concurrently with another one,
/// and a discovery function (`lv2_descriptor`, `extension_data`)
/// concurrently with anything else in the same library, while `run()` of
/// different instances may overlap. Blocks are short, so set-up waits at
/// most one block per renderer; a waiting set-up goes before new blocks
/// (writers first), so steady rendering cannot starve it.
///
/// One gate serves the process (`process`): a plugin library is loaded once
/// per process, whoever loads it. Every LV2 unit makes and frees its
/// instances holding it alone, and is the plan's `threadingGate`, which
/// `OfflineRenderer` (and the batch renderer) hold shared around each
/// block: so renders set up and run from several threads keep the rules.
/// Never set a render up (compile a graph, let go of a plan) while holding
/// it shared on the same thread. A live engine's realtime thread cannot
/// wait, so it never takes it.
public final class PluginSetupGate: UnitThreadingGate, @unchecked Sendable {
    /// The gate every LV2 unit in this process uses.
    public static let process = PluginSetupGate()

    private let lock: UnsafeMutablePointer<pthread_rwlock_t>
    /// The thread holding the gate alone (0: none), so a set-up that makes
    /// units while it holds the gate (a batch file's) neither waits on itself
    /// nor lets go early (glibc refuses a second write lock with EDEADLK, and
    /// the inner unlock would open the gate).
    private let owner = Atomic<UInt>(0)

    public init() {
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

    /// Runs `body` with no block rendering and no other set-up; at once
    /// when this thread holds the gate alone already.
    public func alone<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let thread = UInt(pthread_self())
        // Only this thread stores its own id, so seeing it means it holds the gate.
        if owner.load(ordering: .relaxed) == thread { return try body() }
        pthread_rwlock_wrlock(lock)
        owner.store(thread, ordering: .relaxed)
        defer {
            owner.store(0, ordering: .relaxed)
            pthread_rwlock_unlock(lock)
        }
        return try body()
    }

    /// Runs `body` (one block) beside other threads' blocks.
    public func shared<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        pthread_rwlock_rdlock(lock)
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
