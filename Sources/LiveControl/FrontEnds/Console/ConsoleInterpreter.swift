import Foundation
import HostCore
import JackIO

/// The console's front end to the dispatcher, on the host's thread: a line
/// is parsed into a command, the dispatcher carries it out, and the answer
/// is printed (refusals on stderr as one sentence); the session keeps
/// playing either way. Changes are echoed by `ConsoleEcho` from the
/// dispatcher's announcements, so a change from any front end shows here
/// the same way, and so does a refusal of another front end's command.
package struct ConsoleInterpreter {
    let dispatcher: any ControlSurface

    package enum Outcome { case keepRunning, quit }

    package init(surface dispatcher: any ControlSurface) {
        self.dispatcher = dispatcher
        dispatcher.addListener(ConsoleEcho.show)
        dispatcher.addRefusalListener { refusal in
            // The console's own refusals are printed as its answers.
            guard refusal.source != .console else { return }
            Terminal.error("\(refusal.source) refused: \(refusal.description)")
        }
    }

    package func execute(_ line: String) -> Outcome {
        // A script's JSON command is answered in JSON, a refusal to read it too.
        if line.drop(while: \.isWhitespace).hasPrefix("{") {
            let command: ControlCommand
            do {
                command = try ControlProtocol.command(fromJSON: line)
            } catch {
                Terminal.output(json: ControlProtocol.refusal(error.description).text)
                return .keepRunning
            }
            return answerInJSON(command)
        }
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

    /// A script's JSON: the reply is JSON too, refusals included.
    private func answerInJSON(_ command: ControlCommand) -> Outcome {
        let result: Result<ControlResult, ControlError>
        do {
            result = .success(try dispatcher.dispatch(command, from: .console))
        } catch {
            result = .failure(error)
        }
        Terminal.output(json: ControlProtocol.reply(result).text)
        if case .success(.quit) = result { return .quit }
        return .keepRunning
    }

    private func execute(_ command: ConsoleCommand) throws -> Outcome {
        switch command {
        case .help:
            Terminal.output(lines: ConsoleCommand.usage.components(separatedBy: "\n"))
            return .keepRunning
        case .control(let control, let answer):
            switch try dispatcher.dispatch(control, from: .console) {
            case .changed:
                break  // echoed by the listener
            case .status(let status):
                if answer == .json { Terminal.output(json: try Terminal.json(status)) } else { Terminal.output(LiveStatusLine.text(status)) }
            case .state(let state):
                let oneNode = if case .state(node: .some) = control { true } else { false }
                if answer == .json {
                    Terminal.output(json: try Terminal.json(state))
                } else {
                    Terminal.output(lines: ConsoleShow.lines(state, oneNode: oneNode))
                }
            case .quit:
                return .quit
            case .mappings(let midi, let learning, let port):
                if answer == .json {
                    Terminal.output(json: ControlProtocol.reply(.success(.mappings(midi, learning: learning, port: port))).text)
                } else {
                    Terminal.output(lines: ConsoleEcho.mappingLines(midi, learning: learning, port: port))
                }
            }
            return .keepRunning
        }
    }
}
