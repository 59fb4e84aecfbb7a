extension ControlDispatcher {
    /// Announces, as changes from `.midi`, what the realtime thread applied
    /// from MIDI since the last call (the latest value per parameter: a
    /// sweep is not a flood) and a mapping a `learn` made. The run loop
    /// calls this between commands, as it polls the session.
    @discardableResult
    package func pollMIDIChanges() -> [ControlChange] {
        var changes = session.drainMIDI().map { ControlChange(ControlChange.Kind($0), from: .midi) }
        announce(changes)
        // A program change no scene took, in a setlist run: the patch with
        // that program (one the setlist lacks is refused, and that announced).
        guard setlist != nil else { return changes }
        for program in session.takeMIDIPrograms() {
            if case .changed(let made)? = try? dispatch(.loadPatch(.program(program)), from: .midi) { changes += made }
        }
        return changes
    }
}
