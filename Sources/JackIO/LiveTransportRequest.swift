import HostCore

/// The host's own transport as last asked (`tempo`, `transport start|stop`,
/// tap tempo), kept by the session so an engine made again (reconnect) starts
/// from it and a bounce renders at its tempo.
struct LiveTransportRequest {
    /// Which clock a tap's time is on: each keeps its own count, since
    /// intervals between two clocks mean nothing.
    enum TapClock {
        /// The monotonic clock, when a command was carried out (`tempo tap`).
        case command
        /// JACK's frames over the rate, where a controller's event arrived (`tempo:tap`).
        case midi
    }

    private(set) var tempo: Tempo
    private var rolling = true
    private var commandTaps = TapTempo()
    private var midiTaps = TapTempo()
    /// The last controller tap's JACK frame time and its time in seconds on
    /// the taps' own clock, which goes on past the frame counter's wrap (32 bits)
    /// and starts at 0 with each count.
    private var lastMIDITap: (frame: UInt32, seconds: Double)?

    init(tempo: Tempo) { self.tempo = tempo }

    /// Where a new engine's clock starts. Before `start` only.
    func prepare(_ engine: LiveEngine) {
        engine.prepareTransport(tempo: tempo, rolling: rolling)
    }

    /// Refused while a JACK timebase master is followed: its tempo rules.
    mutating func setBeatsPerMinute(_ beatsPerMinute: Double, on engine: LiveEngine) throws(LiveSessionError) {
        guard InputBounds.tempoRefusal(beatsPerMinute) == nil else {
            throw .tempoOutOfRange(beatsPerMinute)
        }
        try Self.refuseOutsideTempo(engine)
        tempo.beatsPerMinute = beatsPerMinute
        engine.requestTempo(tempo)
    }

    /// Counts a tap at `seconds` on `clock`; from a count's second tap, sets
    /// the tempo its taps give as `setBeatsPerMinute` does (refused the same
    /// way). Returns the tempo set, or the taps counted so far when there is none yet.
    mutating func tap(at seconds: Double, on clock: TapClock, engine: LiveEngine) throws(LiveSessionError)
        -> LiveSession.TapResult {
        // Refused from the first tap: the master's tempo rules, and a count kept meanwhile would mean nothing.
        try Self.refuseOutsideTempo(engine)
        let beatsPerMinute: Double?
        switch clock {
        case .command: beatsPerMinute = commandTaps.tap(at: seconds)
        case .midi: beatsPerMinute = midiTaps.tap(at: seconds)
        }
        guard let beatsPerMinute else {
            return .counted(taps: clock == .command ? commandTaps.taps : midiTaps.taps)
        }
        try setBeatsPerMinute(beatsPerMinute, on: engine)
        return .tempo(beatsPerMinute)
    }

    /// Counts a controller's tap that arrived at JACK frame time `frame`: the
    /// frames since the last tap, over `sampleRate`, are the interval, so taps
    /// at exact frames give an exact tempo.
    mutating func tap(atFrame frame: UInt32, sampleRate: Double, engine: LiveEngine) throws(LiveSessionError)
        -> LiveSession.TapResult {
        let rate = max(sampleRate, 1)
        // The wrapping difference is the frames elapsed, whatever the counter did in between.
        var seconds = lastMIDITap.map { $0.seconds + Double(frame &- $0.frame) / rate } ?? 0
        // A new count starts again from 0 (earlier than the last tap, which
        // starts a count anyway), so its times stay small and exact.
        if seconds - (lastMIDITap?.seconds ?? 0) > TapTempo.forgetSeconds { seconds = 0 }
        lastMIDITap = (frame, seconds)
        return try tap(at: seconds, on: .midi, engine: engine)
    }

    /// A new server's frame clock (a reconnect): frames from the old one
    /// say nothing about time on the new one, so the footswitch's count starts again.
    mutating func frameClockStartsAnew() {
        lastMIDITap = nil
        midiTaps = TapTempo()
    }

    /// Refuses a tempo while another one rules: a MIDI clock's pulses, or a JACK timebase master.
    private static func refuseOutsideTempo(_ engine: LiveEngine) throws(LiveSessionError) {
        if engine.midiClockSetsTempo { throw .tempoFromClock(beatsPerMinute: engine.playingTransport.beatsPerMinute) }
        if engine.followsJackTransport { throw .tempoFromJack(beatsPerMinute: engine.playingTransport.beatsPerMinute) }
    }

    mutating func setRolling(_ rolling: Bool, on engine: LiveEngine) {
        self.rolling = rolling
        engine.requestRolling(rolling)
    }
}
