import HostCore
import JackIO

/// The dispatcher is the surface of a session in this process: the
/// readings front ends show come straight from its session.
extension ControlDispatcher: ControlSurface {
    package func status() -> LiveStatus {
        var status = session.status()
        addSetlist(to: &status)
        return status
    }

    package var completion: CompletionSource {
        var source = CompletionSource(session: session)
        source.nodes.removeAll { SetlistSpill.isSpillNode($0.name) }
        source.patches = setlist?.setlist.entries.map(\.name) ?? []
        return source
    }
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
    package var sourceOrigins: [String: Int?] { session.sourceOrigins }
    package var runningText: String? { patchFile?.runningText(session) }
    package var setlistPatch: String? { setlist?.position.name }

    package func draftSave(_ command: ControlCommand, from source: ControlSource) throws(ControlError) -> PatchSaveDraft {
        do throws(ControlError.Reason) {
            guard case .save(let file, let force) = try confined(command, from: source) else {
                throw .refused("only `save` is written by another process")
            }
            return try saveDraft(file: file, force: force)
        } catch {
            let refusal = ControlError(command: command, source: source, reason: error)
            for listener in refusalListeners { listener(refusal) }
            throw refusal
        }
    }

    package func saved(_ draft: PatchSaveDraft, from source: ControlSource) throws(ControlError) -> ControlResult {
        patchFile?.remember(draft)
        let changes = [ControlChange(.saved(file: draft.target), from: source)]
        announce(changes)
        return .changed(changes)
    }
}
