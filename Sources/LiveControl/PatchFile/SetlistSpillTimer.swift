import HostCore

/// The host's timer for a setlist's spillovers: when one is over, its
/// nodes are taken out of the graph (`LiveSetlist.endSpills`), on the
/// host's thread as every edit is. Attached in the engine of a setlist run.
package final class SetlistSpillTimer: LiveFrontEnd {
    private let dispatcher: ControlDispatcher

    package init(dispatcher: ControlDispatcher) {
        self.dispatcher = dispatcher
    }

    package func start(_ host: LiveHost) {}

    package func service(now: Double) -> LiveFrontEndOutcome {
        if let setlist = dispatcher.setlist, let end = setlist.nextSpillEnd, end <= now {
            setlist.endSpills(now: now, session: dispatcher.session)
        }
        return .keepRunning
    }

    package func nextDeadline() -> Double? { dispatcher.setlist?.nextSpillEnd }
}
