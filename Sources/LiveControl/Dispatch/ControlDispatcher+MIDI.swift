extension ControlDispatcher {
    /// Announces, as changes from `.midi`, what the realtime thread applied
    /// from MIDI since the last call (the latest value per parameter: a
    /// sweep is not a flood) and a mapping a `learn` made. The run loop
    /// calls this between commands, as it polls the session.
    @discardableResult
    package func pollMIDIChanges() -> [ControlChange] {
        let changes = session.drainMIDI().map { ControlChange(ControlChange.Kind($0), from: .midi) }
        announce(changes)
        return changes
    }
}
