import HostCore

/// A command the session refused, and why in one sentence a user can act on
/// (the session's own: the same words whichever front end asked). Nothing
/// was changed and nothing announced.
package struct ControlError: Error, CustomStringConvertible, UserFacingError {
    package var command: ControlCommand
    package var source: ControlSource
    package var reason: LiveSessionError

    package var description: String { reason.description }
}
