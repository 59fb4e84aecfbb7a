import Foundation
import JackIO

/// How the console shows a change to the session: one line on stdout (a
/// failed bounce: a sentence on stderr), the same whichever front end made
/// the change, since it is printed from the dispatcher's announcement.
enum ConsoleEcho {
    static func show(_ change: ControlChange) {
        switch change.kind {
        case .bounceFailed(let reason):
            Terminal.error(reason + "; playing live again")
        default:
            Terminal.output(text(change.kind))
        }
    }

    static func text(_ kind: ControlChange.Kind) -> String {
        switch kind {
        case .parameter(let node, let parameter, let value):
            return "\(node):\(parameter) = \(value)"
        case .bypass(let node, let on):
            return "\(node) \(on ? "bypassed" : "active")"
        case .presetApplied(let node, let name):
            return "\(node): preset \"\(name)\" applied"
        case .tapStarted(let reference, let file):
            return "tap \(reference) → \(file): recording"
        case .tapStopped(let tap):
            return "tap \(tap.node) → \(tap.file): \(ProgressReporter.clock(tap.seconds)) written"
                + (tap.droppedFrames > 0 ? ", \(tap.droppedFrames) frames dropped" : "")
        case .tapPaused(let tap):
            return "tap \(tap.node) → \(tap.file): paused at \(ProgressReporter.clock(tap.seconds))"
        case .tapResumed(let tap):
            return "tap \(tap.node) → \(tap.file): recording again after \(ProgressReporter.clock(tap.seconds))"
        case .connected(let from, let to, let gain):
            return "connected \(from) → \(to)" + (gain == 0 ? "" : String(format: " (%+.1f dB)", gain))
        case .disconnected(let from, let to):
            return "disconnected \(from) → \(to)"
        case .bounceStarted(let files):
            return "bouncing to \(files.joined(separator: ", ")); the outputs are silent until it ends"
                + " (`status` shows how far it is, `bounce cancel` stops it)"
        case .bounceFinished(let bounce):
            return String(format: "bounced %@ of audio to %@ in %.1f s (%.0f× realtime); playing live again",
                          ProgressReporter.clock(bounce.seconds), bounce.files.joined(separator: ", "),
                          bounce.elapsedSeconds, bounce.speed.isFinite ? bounce.speed : 0)
        case .bounceFailed(let reason):
            return reason + "; playing live again"
        }
    }
}
