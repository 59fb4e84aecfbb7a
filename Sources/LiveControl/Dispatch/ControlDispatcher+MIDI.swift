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
        // Only the last of a burst: a controller scrolling through programs
        // must not make a full switch (and a spill) for each one it passes.
        guard setlist != nil, let program = session.takeMIDIPrograms().last else { return changes }
        if case .changed(let made)? = try? dispatch(.loadPatch(.program(program)), from: .midi) { changes += made }
        return changes
    }
}
