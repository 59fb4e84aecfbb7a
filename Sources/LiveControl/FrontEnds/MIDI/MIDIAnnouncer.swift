import HostCore
import JackIO

/// MIDI controllers as a front end: the realtime thread applies what they
/// move in the block they arrive in and only reports it, so this front end
/// takes those reports ten times a second and announces them as changes
/// from `.midi` (the latest value per parameter: a sweep is a few lines,
/// not a flood), with a mapping a `learn` completed. Only a session with a
/// `midi-control:` section has anything to report.
package final class MIDIAnnouncer: LiveFrontEnd {
    private var surface: (any ControlSurface)?
    private var nextPoll = 0.0
    private static let pollSeconds = 0.1

    package init() {}

    package func start(_ host: LiveHost) {
        guard host.surface.hasMIDIControl else { return }
        surface = host.surface
    }

    package func service(now: Double) -> LiveFrontEndOutcome {
        guard let surface, now >= nextPoll else { return .keepRunning }
        nextPoll = now + Self.pollSeconds
        surface.pollMIDI()
        return .keepRunning
    }

    package func nextDeadline() -> Double? { surface == nil ? nil : nextPoll }
}
