import HostCore

/// The host's own transport as last asked (`tempo`, `transport start|stop`),
/// kept by the session so an engine made again (reconnect) starts from it
/// and a bounce renders at its tempo.
struct LiveTransportRequest {
    private(set) var tempo: Tempo
    private var rolling = true

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
        guard !engine.followsJackTransport else {
            throw .tempoFromJack(beatsPerMinute: engine.playingTransport.beatsPerMinute)
        }
        tempo.beatsPerMinute = beatsPerMinute
        engine.requestTempo(tempo)
    }

    mutating func setRolling(_ rolling: Bool, on engine: LiveEngine) {
        self.rolling = rolling
        engine.requestRolling(rolling)
    }
}
