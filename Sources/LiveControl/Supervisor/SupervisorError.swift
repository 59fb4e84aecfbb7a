import HostCore

/// Why a supervised engine could not start or answer: one sentence.
package enum SupervisorError: Error, CustomStringConvertible, UserFacingError {
    /// No engine plays (it died and was not restarted).
    case noEngine
    /// The engine died while the request waited; it has been restarted.
    case engineLost
    /// The engine ended with this exit status before it played, having said why on stderr.
    case engineExited(status: Int32)
    /// The engine crashed before it played: the culprit in a sentence.
    case crashedStarting(String)
    case didNotStart(seconds: Double)
    case snapshotNotWritten(String)
    case stateFolderNotMade(String)

    package var description: String {
        switch self {
        case .noEngine: "the engine is not playing"
        case .engineLost: "the engine crashed before it answered; it was restarted"
        case .engineExited(let status): "the engine ended with exit status \(status) before it played"
        case .crashedStarting(let what): what + " as the engine started, so the run could not start"
        case .didNotStart(let seconds): "the engine did not start playing within \(NumberText.format(seconds)) s, so it was stopped"
        case .snapshotNotWritten(let reason): "the running state could not be saved for the restart (\(reason))"
        case .stateFolderNotMade(let reason):
            "no folder could be made for the plugins' state snapshots (\(reason)), so a restart gives plugins only what the patch sets"
        }
    }
}
