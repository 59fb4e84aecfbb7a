import CJack
import Synchronization

/// What JACK's latency callback reports for a live engine's ports, as
/// JACK's latency API describes: in capture mode each output port gets the
/// capture latency of what feeds the engine's inputs plus the program's own
/// latency; in playback mode each input port gets the playback latency of
/// what the outputs feed plus the program's latency. Every input is taken to
/// feed every output (a patch's outputs are aligned to one latency), and a
/// file source counts as audio made here, with no capture latency.
///
/// JACK calls this on a thread of its own, not the process thread.
func reportLiveLatency(_ state: UnsafeMutablePointer<LiveEngineState>, mode: jack_latency_callback_mode_t) {
    let added = UInt32(clamping: state.pointee.latencyFrames.load(ordering: .acquiring))
    if mode.rawValue == JackCaptureLatency.rawValue {
        let playsFiles = state.pointee.playsFiles.load(ordering: .acquiring)
        var range = widestRange(of: state.pointee.inputPorts, mode: mode, fromZero: playsFiles)
        range.min += added
        range.max += added
        for port in state.pointee.outputPorts { jack_port_set_latency_range(port, mode, &range) }
    } else {
        var range = widestRange(of: state.pointee.outputPorts, mode: mode, fromZero: false)
        range.min += added
        range.max += added
        for port in state.pointee.inputPorts { jack_port_set_latency_range(port, mode, &range) }
    }
}

/// The smallest minimum and largest maximum over `ports` (JACK fills in
/// what their connections report); [0, 0] for no ports. `fromZero` makes
/// the minimum 0 (another path starts here with no latency).
private func widestRange(of ports: UnsafeMutableBufferPointer<OpaquePointer>, mode: jack_latency_callback_mode_t,
                         fromZero: Bool) -> jack_latency_range_t {
    guard !ports.isEmpty else { return jack_latency_range_t(min: 0, max: 0) }
    var widest = jack_latency_range_t(min: .max, max: 0)
    for port in ports {
        var range = jack_latency_range_t()
        jack_port_get_latency_range(port, mode, &range)
        widest.min = min(widest.min, range.min)
        widest.max = max(widest.max, range.max)
    }
    if fromZero { widest.min = 0 }
    return widest
}
