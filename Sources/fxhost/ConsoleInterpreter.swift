import Foundation
import HostCore
import JackIO

/// Carries out console commands on a live session, on the run loop's
/// thread: answers go to stdout, refusals to stderr as one sentence, and the
/// session keeps playing either way.
struct ConsoleInterpreter {
    let session: LiveSession

    enum Outcome { case keepRunning, quit }

    func execute(_ line: String) -> Outcome {
        do {
            guard let command = try ConsoleCommand.parse(line) else { return .keepRunning }
            return try execute(command)
        } catch let error as any UserFacingError {
            Terminal.error(error.description)
        } catch {
            Terminal.error("\(error)")
        }
        return .keepRunning
    }

    private func execute(_ command: ConsoleCommand) throws -> Outcome {
        switch command {
        case .set(let node, let parameter, let value):
            let stored = try session.setParameter(node: node, symbol: parameter, value: value)
            answer("\(node):\(parameter) = \(stored)")
        case .bypass(let node, let on):
            try session.setBypass(node: node, on)
            answer("\(node) \(on ? "bypassed" : "active")")
        case .preset(let node, let name):
            try session.applyPreset(node: node, name: name)
            answer("\(node): preset \"\(name)\" applied")
        case .tap(let reference, let file):
            try session.startTap(reference, file: file)
            answer("tap \(reference) → \(file): recording")
        case .untap(let reference):
            for tap in try session.stopTaps(node: reference.node, port: reference.port) {
                answer("tap \(tap.node) → \(tap.file): \(ProgressReporter.clock(tap.seconds)) written"
                       + (tap.droppedFrames > 0 ? ", \(tap.droppedFrames) frames dropped" : ""))
            }
        case .pauseTap(let reference):
            for tap in try session.pauseTaps(node: reference.node, port: reference.port) {
                answer("tap \(tap.node) → \(tap.file): paused at \(ProgressReporter.clock(tap.seconds))")
            }
        case .resumeTap(let reference):
            for tap in try session.resumeTaps(node: reference.node, port: reference.port) {
                answer("tap \(tap.node) → \(tap.file): recording again after \(ProgressReporter.clock(tap.seconds))")
            }
        case .connect(let from, let to, let gain):
            try session.connect(from, to: to, gainDecibels: gain)
            answer("connected \(from) → \(to)" + (gain == 0 ? "" : String(format: " (%+.1f dB)", gain)))
        case .disconnect(let from, let to):
            try session.disconnect(from, to: to)
            answer("disconnected \(from) → \(to)")
        case .bounce(let file, let from, let to):
            let bounce = try session.startBounce(to: file, startSeconds: from, endSeconds: to)
            answer("bouncing to \(bounce.files.joined(separator: ", ")); the outputs are silent until it ends"
                   + " (`status` shows how far it is, `bounce cancel` stops it)")
        case .cancelBounce:
            try session.cancelBounce()
        case .status(let json):
            let status = session.status()
            if json {
                try Terminal.printJSON(status)
                fflush(stdout)  // a pipe or file buffers it otherwise
            } else {
                answer(LiveStatusLine.text(status))
            }
        case .help:
            answer(ConsoleCommand.usage)
        case .quit:
            return .quit
        }
        return .keepRunning
    }

    /// Reports a bounce that has ended (live playing has resumed by then):
    /// the file and its length on stdout, or why it failed on stderr.
    func reportFinishedBounce(wait: Bool = false) {
        switch session.finishBounce(wait: wait) {
        case .success(let summary):
            let files = summary.outputs.compactMap(\.file).joined(separator: ", ")
            answer(String(format: "bounced %@ of audio to %@ in %.1f s (%.0f× realtime); playing live again",
                          ProgressReporter.clock(summary.durationSeconds), files, summary.elapsedSeconds,
                          summary.speed.isFinite ? summary.speed : 0))
        case .failure(let error):
            Terminal.error(error.description + "; playing live again")
        case nil:
            break
        }
    }

    private func answer(_ text: String) {
        print(text)
        fflush(stdout)
    }
}
