import HostCore
import JackIO
import LiveControl
import LV2Bridge

/// In an engine process: each plugin's own LV2 state snapshotted at most
/// once a second (`StateSnapshots`), on the host's thread, which owns the
/// lilv world, never the realtime one: LV2 lets save() run beside run().
/// A snapshot that could not be taken is told to the supervisor as a note.
/// The nodes a crash left out are not snapshotted until restored: one
/// that crashed in save() would otherwise crash every engine a second after
/// it starts.
final class StateSnapshotLoop: LiveFrontEnd {
    private let snapshots: StateSnapshots
    private let session: LiveSession
    private let note: (String) -> Void
    private var leftOut: Set<String>
    private var due = 0.0
    static let seconds = 1.0

    init(snapshots: StateSnapshots, session: LiveSession, leftOut: Set<String>, note: @escaping (String) -> Void) {
        self.snapshots = snapshots
        self.session = session
        self.leftOut = leftOut
        self.note = note
    }

    func start(_ host: LiveHost) {
        due = Double(MonotonicClock.nanoseconds()) / 1e9 + Self.seconds
        // `restore NODE` reaches the engine as this change.
        _ = host.surface.addListener { [weak self] change in
            if case .bypass(let node, false) = change.kind { self?.leftOut.remove(node) }
        }
    }

    func service(now: Double) -> LiveFrontEndOutcome {
        guard now >= due else { return .keepRunning }
        var names: Set<String> = []
        for node in session.graph.nodes {
            guard case .unit(let unit, _) = node.kind else { continue }
            names.insert(node.name)
            guard !leftOut.contains(node.name) else { continue }
            if case .skipped(let reason) = snapshots.take(node: node.name, unit: unit, now: now) { note(reason) }
        }
        snapshots.keepOnly(names)
        // After the work: a slow save() does not make the next one come sooner.
        due = Double(MonotonicClock.nanoseconds()) / 1e9 + Self.seconds
        return .keepRunning
    }

    func nextDeadline() -> Double? { due }
}
