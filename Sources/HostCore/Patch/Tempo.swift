/// A patch's `tempo:` and `meter:`: what the host's transport plays at when
/// no JACK timebase master gives another (120 bpm in 4/4 unless the patch
/// says otherwise).
package struct Tempo: Sendable, Equatable {
    package var beatsPerMinute: Double
    package var beatsPerBar: Int
    /// The note value of one beat: 4 for `4/4`, 8 for `6/8`.
    package var beatUnit: Int

    package static var beatsPerMinuteRange: ClosedRange<Double> { InputBounds.beatsPerMinute }
    package static let beatsPerBarRange = 1...64
    package static let beatUnits = [1, 2, 4, 8, 16, 32, 64]

    @inlinable @_noLocks
    package init(beatsPerMinute: Double = 120, beatsPerBar: Int = 4, beatUnit: Int = 4) {
        self.beatsPerMinute = beatsPerMinute
        self.beatsPerBar = beatsPerBar
        self.beatUnit = beatUnit
    }
}
