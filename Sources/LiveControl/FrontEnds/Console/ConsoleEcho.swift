import Foundation
import HostCore
import JackIO

/// How the console shows a change to the session: one line on stdout (a
/// failed bounce or tap: a sentence on stderr), the same whichever front end made
/// the change, since it is printed from the dispatcher's announcement.
/// Names, files and values in it came from outside: `Terminal` escapes
/// them (a line break in a file name stays on the one line, as `\n`).
enum ConsoleEcho {
    static func show(_ change: ControlChange) {
        switch change.kind {
        case .bounceFailed(let reason):
            Terminal.error(reason + "; playing live again")
        case .patchRefused, .tapFailed, .engineCrashed:
            Terminal.error(text(change.kind))
        default:
            Terminal.output(text(change.kind))
        }
    }

    static func text(_ kind: ControlChange.Kind) -> String {
        switch kind {
        case .parameter(let node, let parameter, let value):
            return "\(node):\(parameter) = \(value)"
        case .property(let node, let property, let value):
            return "\(node):\(property) = \(value)"
        case .bypass(let node, let on):
            return "\(node) \(on ? "bypassed" : "active")"
        case .presetApplied(let node, let name):
            return "\(node): preset \"\(name)\" applied"
        case .presetSaved(let node, let name, let bundle):
            return "\(node): preset \"\(name)\" saved in \(bundle)"
        case .tapStarted(let reference, let file):
            return "tap \(reference) → \(file): recording"
        case .tapStopped(let tap):
            return "tap \(tap.node) → \(tap.file): \(NumberText.clock(tap.seconds)) written"
                + (tap.droppedFrames > 0 ? ", \(tap.droppedFrames) frames dropped" : "")
        case .tapPaused(let tap):
            return "tap \(tap.node) → \(tap.file): paused at \(NumberText.clock(tap.seconds))"
        case .tapResumed(let tap):
            return "tap \(tap.node) → \(tap.file): recording again after \(NumberText.clock(tap.seconds))"
        case .tapFailed(let tap, let reason):
            return "tap \(tap.node) → \(tap.file): \(reason); the take stops at \(NumberText.clock(tap.seconds)), "
                + "its file closed and readable (the other taps and the sound go on)"
        case .connected(let from, let to, let gain):
            return "connected \(from) → \(to)" + (gain == 0 ? "" : String(format: " (%+.1f dB)", gain))
        case .disconnected(let from, let to):
            return "disconnected \(from) → \(to)"
        case .bounceStarted(let files):
            return "bouncing to \(files.joined(separator: ", ")); the outputs are silent until it ends"
                + " (`status` shows how far it is, `bounce cancel` stops it)"
        case .bounceFinished(let bounce):
            return String(format: "bounced %@ of audio to %@ in %.1f s (%.0f× realtime); playing live again",
                          NumberText.clock(bounce.seconds), bounce.files.joined(separator: ", "),
                          bounce.elapsedSeconds, bounce.speed.isFinite ? bounce.speed : 0)
        case .bounceFailed(let reason):
            return reason + "; playing live again"
        case .learning(let node, let parameter):
            return "learning \(node):\(parameter): move a MIDI controller to map it"
        case .mapped(let mapping, let replaced):
            return "mapped \(mapping)" + (replaced.isEmpty ? "" : " (replacing \(replaced.map(\.description).joined(separator: ", ")))")
        case .unmapped(let node, let parameter):
            return "unmapped \(node):\(parameter)"
        case .sceneApplied(let name):
            return "scene \(name)"
        case .patchSwitched(let name, let index):
            return "setlist: playing \(name) (\(index + 1))"
        case .saved(let file):
            return "saved the running patch to \(file)"
        case .patchReloaded(let added, let removed, let rewired):
            var parts: [String] = []
            if !added.isEmpty { parts.append("added " + added.joined(separator: ", ")) }
            if !removed.isEmpty { parts.append("removed " + removed.joined(separator: ", ")) }
            if rewired { parts.append("rewired") }
            return "patch file reloaded" + (parts.isEmpty ? " (taps changed)" : ": " + parts.joined(separator: "; "))
        case .patchRefused(let reason):
            return reason + " (the file's change is refused: the running patch plays on unchanged)"
        case .tempo(let beatsPerMinute):
            return "tempo \(NumberText.format(beatsPerMinute)) bpm"
        case .tempoTapped(let taps):
            return "tempo tap \(taps): tap again for a tempo"
        case .transport(let rolling):
            return "transport \(rolling ? "rolling" : "stopped")"
        case .engineCrashed(let crash):
            return crash.sentence
        case .restored(let node):
            return "restored \(node): it plays again"
        }
    }

    /// The answer to `map`: the MIDI input (and feedback output), each mapping as the patch
    /// writes it, a `learn` waiting, and the scenes, as lines.
    static func mappingLines(_ control: MIDIControl, learning: String?, port: String?) -> [String] {
        var lines: [String] = []
        if let port {
            lines.append("MIDI input \(port)" + (control.inputs.isEmpty ? "" : " ← " + control.inputs.joined(separator: ", ")))
        } else {
            lines.append("no MIDI input (the patch has no `midi-control:`)")
        }
        if !control.outputs.isEmpty { lines.append("MIDI feedback → " + control.outputs.joined(separator: ", ")) }
        if control.mappings.isEmpty { lines.append("  nothing mapped") }
        for mapping in control.mappings { lines.append("  \(mapping)") }
        if let learning { lines.append("  learning \(learning): move a controller") }
        if !control.scenes.isEmpty {
            lines.append("scenes: " + control.scenes.map(\.name).joined(separator: ", "))
        }
        return lines
    }
}
