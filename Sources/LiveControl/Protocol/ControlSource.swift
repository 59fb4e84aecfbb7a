/// Which front end gave a command, carried by every change it makes so a
/// listener can tell (an OSC front end, say, need not echo a change back to
/// the client that asked for it).
package enum ControlSource: Hashable, Sendable, Codable {
    /// A line typed on `fxhost run`'s stdin.
    case console
    /// An OSC client, named by its address (`127.0.0.1:9000`).
    case osc(sender: String)
    /// A MIDI controller's message through a mapping.
    case midi
    /// A reload of the patch file (`--watch`).
    case patchFile(path: String)
    /// The host itself, with news no one asked for: a tap's file could not
    /// be written (a full disk).
    case host
    /// A browser or HTTP client of `--web`, named by its address (`127.0.0.1:54321`).
    case web(peer: String)

    /// A peer that may be any local process (or, bound elsewhere, anyone who
    /// has the token): the paths it names are confined (`RemotePaths`).
    package var isRemote: Bool {
        switch self {
        case .osc, .web: return true
        case .console, .midi, .patchFile, .host: return false
        }
    }
}

extension ControlSource: CustomStringConvertible {
    /// As events and the console name it: `console`, `osc:127.0.0.1:9000`, `midi`, `file:/path/patch.yaml`, `host`,
    /// `web:127.0.0.1:54321`.
    package var description: String {
        switch self {
        case .console: return "console"
        case .osc(let sender): return "osc:\(sender)"
        case .midi: return "midi"
        case .patchFile(let path): return "file:\(path)"
        case .host: return "host"
        case .web(let peer): return "web:\(peer)"
        }
    }
}
