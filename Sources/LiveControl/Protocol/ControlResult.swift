import HostCore
import JackIO

/// What `ControlDispatcher.dispatch` answers for a command it carried out.
package enum ControlResult: Sendable, Codable {
    /// The changes made, in the order they were announced (none for a
    /// request whose effect comes later, such as `cancelBounce`: the
    /// bounce's end is announced when it happens).
    case changed([ControlChange])
    /// The answer to `status`.
    case status(LiveStatus)
    /// The answer to `state`: the session, or one node of it.
    case state(SessionState)
    /// The answer to `quit`: the host's run loop ends the run.
    case quit
    /// The answer to `mappings`: the mappings and scenes, the parameter a
    /// `learn` waits for, and the MIDI input port (nil: no `midi-control:`).
    case mappings(MIDIControl, learning: String?, port: String?)
}
