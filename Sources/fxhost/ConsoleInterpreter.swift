import Foundation
import HostCore
import JackIO

/// The console's front end to the dispatcher, on the run loop's thread: a
/// line is parsed into a command, the dispatcher carries it out, and the
/// answer is printed (refusals on stderr as one sentence); the session keeps
/// playing either way. Changes are echoed by `ConsoleEcho` from the
/// dispatcher's announcements, so a change from any front end shows here
/// the same way.
struct ConsoleInterpreter {
    let dispatcher: ControlDispatcher

    enum Outcome { case keepRunning, quit }

    init(dispatcher: ControlDispatcher) {
        self.dispatcher = dispatcher
        dispatcher.addListener(ConsoleEcho.show)
    }

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
        case .control(let control):
            switch try dispatcher.dispatch(control, from: .console) {
            case .changed:
                break  // echoed by the listener
            case .status(let status):
                answer(LiveStatusLine.text(status))
            case .quit:
                return .quit
            case .mappings(let control, let learning, let port):
                answer(ConsoleEcho.mappingsText(control, learning: learning, port: port))
            }
        case .statusAsJSON:
            guard case .status(let status) = try dispatcher.dispatch(.status, from: .console) else { break }
            Terminal.output(try Terminal.json(status))
        case .help:
            answer(ConsoleCommand.usage)
        }
        return .keepRunning
    }

    private func answer(_ text: String) {
        Terminal.output(text)
    }
}
