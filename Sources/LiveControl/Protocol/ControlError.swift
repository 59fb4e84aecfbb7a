import HostCore
import JackIO

/// A command the session refused, and why in one sentence a user can act on
/// (the session's own: the same words whichever front end asked). Nothing
/// was changed and nothing announced.
package struct ControlError: Error, CustomStringConvertible, UserFacingError {
    /// Who refused: the session, or the patch file (`save`).
    package enum Reason: Error, CustomStringConvertible {
        case session(LiveSessionError)
        case patchFile(LivePatchFileError)
        /// Refused before it reached either: an existing file without
        /// `force`, or a remote path outside its folder (one sentence).
        case refused(String)

        package var description: String {
            switch self {
            case .refused(let sentence): return sentence
            case .session(let error): return error.description
            case .patchFile(let error): return error.description
            }
        }
    }

    package var command: ControlCommand
    package var source: ControlSource
    package var reason: Reason

    package var description: String { reason.description }
}
