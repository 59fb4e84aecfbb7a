import JackIO
import HostCore

/// What any front end can ask of a live session: the console, OSC, a
/// script's JSON, the file watcher. Said in the session's terms, not a
/// front end's (words, OSC arguments, JSON fields are the front end's
/// business, declared once per command in `CommandTable`);
/// `ControlDispatcher` carries it out.
package enum ControlCommand: Equatable, Sendable, Codable {
    case set(node: String, parameter: String, value: ParameterValue)
    case bypass(node: String, on: Bool)
    /// Plays again a node a crash left out (a supervised run's).
    case restore(node: String)
    case preset(node: String, name: String)
    /// Saves the node's state as an LV2 preset bundle in `~/.lv2`.
    case savePreset(node: String, name: String)
    case tap(PortReference, file: String)
    case untap(PortReference)
    case pauseTap(PortReference)
    case resumeTap(PortReference)
    case connect(from: PortReference, to: PortReference, gainDecibels: Double)
    case disconnect(from: PortReference, to: PortReference)
    /// Seconds of the timeline; `to` nil: to the end of the sources, then the tail.
    /// An existing `file` is refused unless `force`.
    case bounce(file: String, from: Double, to: Double?, force: Bool = false)
    case cancelBounce
    /// Maps the next MIDI controller that moves to the parameter (or `bypass`).
    case learn(node: String, parameter: String)
    case unlearn(node: String, parameter: String)
    /// The MIDI mappings: the dispatcher answers with `ControlResult.mappings`.
    case mappings
    /// Switches every value and bypass of a scene at one block boundary.
    /// With `glide` (seconds), continuous values glide there and the rest switches at its end.
    case scene(String, glide: Double? = nil)
    /// Sends every mapped value on the MIDI feedback output, changed or not.
    case feedback
    /// Writes the running state as a patch to `file`, or over the patch
    /// file the run loaded (nil): values, bypass, wiring, taps. An existing
    /// `file` is refused unless `force` (the loaded patch, nil, is not).
    case save(file: String?, force: Bool = false)
    /// The patch file's new text (`--watch` reads it), or nil to read the
    /// file now (`reload`): the difference with the running graph is
    /// applied, or the text refused.
    case reload(text: String?)
    /// A setlist run: switches to the next patch, the previous one, or one
    /// by name or MIDI program (`load NAME`, a program change).
    case nextPatch
    case previousPatch
    case loadPatch(SetlistChoice)
    /// The tempo of the host's own transport, in beats per minute.
    case tempo(Double)
    /// A tap of tap tempo, at the moment it is carried out: from the second
    /// tap on, the tempo is set from the taps' mean interval (`TapTempo`).
    case tempoTap
    /// Starts (true) or stops the transport plugins that take the host's time follow.
    case transport(rolling: Bool)
    /// A snapshot of the session: the dispatcher answers with `ControlResult.status`.
    case status
    /// The whole session, or one node of it, as any surface draws it from
    /// nothing: the dispatcher answers with `ControlResult.state`.
    case state(node: String?)
    /// Ends the run: the dispatcher only answers `ControlResult.quit`; the
    /// run loop that owns the session finishes it.
    case quit
}

extension ControlCommand {
    /// Starts, stops, pauses or resumes a take.
    package var changesTaps: Bool {
        switch self {
        case .tap, .untap, .pauseTap, .resumeTap: true
        default: false
        }
    }

    /// A question that changes nothing (`status`, `state`, `mappings`): safe to ask again.
    package var isQuery: Bool {
        switch self {
        case .status, .state, .mappings: true
        default: false
        }
    }
}

extension ControlCommand {
    /// Every node the command names, for checks that confine them (a
    /// setlist's spill nodes take no command).
    package var namedNodes: [String] {
        switch self {
        case .set(let node, _, _), .bypass(let node, _), .restore(let node), .preset(let node, _),
             .savePreset(let node, _), .learn(let node, _), .unlearn(let node, _):
            [node]
        case .tap(let port, _), .untap(let port), .pauseTap(let port), .resumeTap(let port):
            [port.node]
        case .connect(let from, let to, _), .disconnect(let from, let to):
            [from.node, to.node]
        case .state(let node?):
            [node]
        default:
            []
        }
    }
}
