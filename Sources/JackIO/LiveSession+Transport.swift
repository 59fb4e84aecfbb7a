import HostCore

/// `tempo BPM` and `transport start|stop`: the host's own transport, which
/// plugins that take the host's time follow when no JACK timebase master runs.
extension LiveSession {
    /// Sets the tempo of the host's own transport (the meter stays). Refused
    /// while a JACK timebase master is followed: its tempo rules.
    package func setTempo(_ beatsPerMinute: Double) throws(LiveSessionError) {
        try transport.setBeatsPerMinute(beatsPerMinute, on: engine)
    }

    /// What a tap of tap tempo did.
    package enum TapResult: Equatable, Sendable {
        /// The tempo the taps give was set (beats per minute).
        case tempo(Double)
        /// No tempo yet (the first tap of a count): the taps counted.
        case counted(taps: Int)
    }

    /// `tempo tap`: a tap now, on the monotonic clock. From a count's second
    /// tap the tempo is set from the taps' mean interval (`TapTempo`), the
    /// way `setTempo` sets it: refused while a JACK timebase master is followed.
    package func tapTempo(atNanoseconds nanoseconds: Int = MonotonicClock.nanoseconds()) throws(LiveSessionError) -> TapResult {
        try transport.tap(at: Double(nanoseconds) / 1e9, on: .command, engine: engine)
    }

    /// Starts or stops the transport (JACK's, when a timebase master is followed).
    package func setTransportRolling(_ rolling: Bool) {
        transport.setRolling(rolling, on: engine)
    }

    /// The host's own tempo as last asked, for an engine made again and a bounce.
    package var transportTempo: Tempo { transport.tempo }

    /// How often the position plugins are told has jumped (a new tempo, a
    /// relocation, a skipped cycle, a timebase master's late position).
    package var transportJumps: Int { engine.transportJumps }

    /// What plugins are told now: the tempo, rolling or stopped, and whether
    /// it comes from a MIDI clock or a JACK timebase master.
    package var transportStatus: LiveStatus.Transport {
        let playing = engine.playingTransport
        return LiveStatus.Transport(beatsPerMinute: playing.beatsPerMinute, rolling: playing.rolling,
                                    beatsPerBar: playing.beatsPerBar, beatUnit: playing.beatUnit,
                                    source: engine.followsMIDIClock ? "clock" : engine.followsJackTransport ? "jack" : "fxhost")
    }
}
