// Called by: the thread that renders (the realtime thread live, the render
// thread offline): the driver writes it before each block, the units' time
// hooks read it during the block.

/// Where the music is, as LV2's `time:Position` says it, for one block: the
/// driver writes it into the plan's transport cell (`RenderProgram.transport`)
/// before every block, and each plugin that takes the host's time reads it.
/// `generation` changes only when the position jumps (a start, a relocation,
/// a new tempo, meter or speed), not as frames roll on: a plugin is sent a
/// position when it changes and counts the frames in between itself.
package struct TransportPosition: Sendable, Equatable {
    /// The transport's frame at the start of the block.
    package var frame: Int64
    /// 1 rolling, 0 stopped.
    package var speed: Double
    package var beatsPerMinute: Double
    package var beatsPerBar: Double
    /// The note value of one beat (4: a quarter note).
    package var beatUnit: Int32
    /// Bars since the start, from 0.
    package var bar: Int64
    /// Beats into the bar, from 0.
    package var barBeat: Double
    /// Beats since the start.
    package var beat: Double
    /// Changes whenever the position jumps; 0 means "no position yet".
    package var generation: UInt64

    @inlinable @_noLocks
    package init(frame: Int64, speed: Double, beatsPerMinute: Double, beatsPerBar: Double,
                 beatUnit: Int32, bar: Int64, barBeat: Double, beat: Double, generation: UInt64) {
        self.frame = frame
        self.speed = speed
        self.beatsPerMinute = beatsPerMinute
        self.beatsPerBar = beatsPerBar
        self.beatUnit = beatUnit
        self.bar = bar
        self.barBeat = barBeat
        self.beat = beat
        self.generation = generation
    }

    /// No position yet (generation 0): 120 bpm in 4/4, stopped at frame 0.
    package init() {
        self.init(frame: 0, speed: 0, beatsPerMinute: 120, beatsPerBar: 4, beatUnit: 4, bar: 0, barBeat: 0, beat: 0,
                  generation: 0)
    }
}
