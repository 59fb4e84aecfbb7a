import HostCore
import JackIO

/// The session played in this process, steered through its dispatcher:
/// what `LiveHost` runs when no supervisor keeps the engine apart.
package final class InProcessEngine: HostedEngine {
    package let session: LiveSession
    package let dispatcher: ControlDispatcher
    /// Connections to make instead of the patch's at the first
    /// `connectPorts`: those an engine had when it crashed (a rejoined server
    /// after that gets the patch's again, the others' ports being gone).
    package var connectionsToRemake: JackConnections?
    /// False: `connectPorts` makes none of the patch's (`--no-connect`), only those to remake.
    package var makesPatchConnections = true

    package init(session: LiveSession, patchFile: LivePatchFile?) {
        self.session = session
        dispatcher = ControlDispatcher(session: session)
        dispatcher.patchFile = patchFile
    }

    package var surface: any ControlSurface { dispatcher }
    package func start() throws { try session.start() }
    package func connectPorts() throws {
        defer {
            session.releaseHeldTakes()  // a take a crash broke goes on from its first connected cycle
            // What was sent before the connections reached no controller: the state once more, now connected.
            session.resendMIDIFeedbackIfAny()
        }
        if let saved = connectionsToRemake {
            connectionsToRemake = nil
            session.remakeConnections(saved)
        } else if makesPatchConnections {
            try session.connectPorts()
        }
    }
    package func poll() throws { try session.poll() }
    package var serverHasShutDown: Bool { session.serverHasShutDown }
    package func reconnect() throws(LiveSessionError) { try session.reconnect() }

    package func announceEnded() {
        dispatcher.finishBounce()
        dispatcher.announceTapFailures()
    }

    package func finish() throws -> LiveStatus { try session.finish() }
}
