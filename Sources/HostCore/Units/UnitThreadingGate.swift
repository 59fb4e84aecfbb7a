/// A lock a kind of unit needs when several renders share a process: LV2
/// forbids a plugin library's set-up calls beside any other call into it,
/// `run()` included (LV2Bridge's `PluginSetupGate`). The units make and free
/// their instances holding it alone; an offline driver holds it shared
/// around each block, so renders on several threads stay within the rules.
/// A live engine's realtime thread never takes it: it cannot wait.
public protocol UnitThreadingGate: AnyObject, Sendable {
    /// Runs `body` (one block) beside other threads' blocks, never beside a set-up.
    func shared<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T
}
