import HostCore

/// A change the session made by itself, or as part of a scene, which the
/// control layer announces: what the realtime thread applied from MIDI (a
/// controller moved a value or a bypass, a program change switched a
/// scene), a mapping `learn` completed, and each value of a scene. The
/// session does not know who steers it; the control layer turns these into
/// its own changes, with their source.
package enum LiveSessionChange: Equatable, Sendable {
    /// `value` as stored, after the parameter's range check.
    case parameter(node: String, parameter: String, value: Float)
    case bypass(node: String, on: Bool)
    /// A scene was switched to; its values and bypasses follow as changes of their own.
    case sceneApplied(String)
    /// A mapping `learn` made when a controller moved, and the mappings it
    /// replaced (of the same controller, or to the same parameter).
    case mapped(MIDIMapping, replacing: [MIDIMapping])
    /// Taps of a controller mapped to `tempo:tap` set the host's tempo (beats per minute).
    case tempo(Double)
}
