extension LiveStatus {
    /// What plugins that take the host's time are told (`status --json`'s `transport`).
    public struct Transport: Codable, Sendable, Equatable {
        public var beatsPerMinute: Double
        public var rolling: Bool
        public var beatsPerBar: Int
        public var beatUnit: Int
        /// "clock" once a MIDI clock is followed, "jack" while a JACK timebase
        /// master is, else "fxhost" (the patch's tempo).
        public var source: String

        package init(beatsPerMinute: Double, rolling: Bool, beatsPerBar: Int, beatUnit: Int, source: String) {
            self.beatsPerMinute = beatsPerMinute
            self.rolling = rolling
            self.beatsPerBar = beatsPerBar
            self.beatUnit = beatUnit
            self.source = source
        }
    }
}
