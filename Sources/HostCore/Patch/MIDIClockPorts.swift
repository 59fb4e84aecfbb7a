/// A patch's `clock:` section: the JACK MIDI ports a MIDI clock is followed
/// from (`input`, read on `fxhost:clock_in`) and sent to (`output`, from
/// `fxhost:clock_out`). An empty list still asks for the port, left for
/// something else to connect. Used live; a render only checks it.
package struct MIDIClockPorts: Sendable, Equatable, Codable {
    /// JACK MIDI output ports (exact names or patterns) whose clock the
    /// transport follows; nil: no clock input.
    package var inputs: [String]?
    /// JACK MIDI input ports (exact names or patterns) the transport's clock
    /// is sent to; nil: no clock output.
    package var outputs: [String]?

    package init(inputs: [String]? = nil, outputs: [String]? = nil) {
        self.inputs = inputs
        self.outputs = outputs
    }

    /// Whether the patch asks for no clock at all (no ports are registered then).
    package var isEmpty: Bool { inputs == nil && outputs == nil }
}
