import HostCore
import JackIO

/// The dispatcher is the surface of a session in this process: the
/// readings front ends show come straight from its session.
extension ControlDispatcher: ControlSurface {
    package func status() -> LiveStatus { session.status() }
    package var completion: CompletionSource { CompletionSource(session: session) }
    package var hasMIDIControl: Bool { session.midiControl.isDeclared }
    package func pollMIDI() { _ = pollMIDIChanges() }
    package func addMeterReader() -> OutputPeakReaders.Reader { session.addMeterReader() }
    package func removeMeterReader(_ reader: OutputPeakReaders.Reader) { session.removeMeterReader(reader) }

    package func meters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])] {
        session.meters(reader)
    }

    package func tapMeters(_ reader: OutputPeakReaders.Reader) -> [(node: String, decibels: [Double])] {
        session.tapMeters(reader)
    }

    package var activity: (dspLoadPercent: Double, xruns: Int, bounce: LiveStatus.Bounce?) { session.activity }
    package var taps: [LiveStatus.Tap] { session.taps }
    package var runningText: String? { patchFile?.runningText(session) }
}
