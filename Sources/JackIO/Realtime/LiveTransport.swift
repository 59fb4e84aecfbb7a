import CJack
import HostCore
import Synchronization

// Called by: the realtime thread (`position(frames:)`, once per cycle, from
// `runLiveCycle`); the control thread asks for a tempo or a start/stop
// through the atomics and reads back what the realtime thread follows.

/// Where the music is, live. When a JACK timebase master runs (JACK's
/// position carries bar, beat and tick), its tempo, meter, bar and beat and
/// JACK's rolling or stopped state are followed, as jalv and Ardour do;
/// otherwise the host's own `TransportClock` rolls at the patch's tempo, and
/// `tempo` and `transport start|stop` change it. A MIDI clock on
/// `fxhost:clock_in` (see `readMIDIClock`), from its first message on, rules
/// the own clock instead: its pulses' tempo, its start, stop, continue and
/// song position (a JACK timebase master is then not followed). Either way the position
/// gets a new generation (so plugins are sent it) only when it jumps: a new
/// tempo, meter or speed, a relocation, or a change of source.
struct LiveTransport: ~Copyable {
    /// The JACK client, for `jack_transport_query`; set before activation.
    var client: OpaquePointer?
    /// The host's own transport, used when no timebase master runs.
    var clock: TransportClock

    /// Asked by the control thread: the tempo (beats per minute, as bits),
    /// the meter (beats per bar × 256 + note value) and rolling or not.
    let requestedTempo: Atomic<UInt64>
    let requestedMeter: Atomic<Int>
    let requestedRolling = Atomic<Bool>(true)
    /// Start/stop requests so far: under a clock a request applies when it
    /// is new, even one repeating the last (the clock may have moved since).
    let rollingRequests = Atomic<UInt64>(0)
    /// Told by the realtime thread: whether a timebase master is followed,
    /// and the tempo and rolling state it plays at (for status and refusals).
    let followsJack = Atomic<Bool>(false)
    let playingTempo: Atomic<UInt64>
    let playingRolling = Atomic<Bool>(true)
    let playingMeter: Atomic<Int>
    /// Jumps so far (each sends plugins a new position): for diagnosis and
    /// tests, which cannot tell a click resynchronised by a late timebase
    /// master from one placed wrongly otherwise.
    let jumps = Atomic<Int>(0)
    /// Told by the realtime thread: a MIDI clock is followed (from its first message on).
    let followsClock = Atomic<Bool>(false)
    /// Told by the realtime thread: the clock followed has given a tempo (from
    /// its second pulse); until then `tempo` still sets the own clock's.
    let clockGivesTempo = Atomic<Bool>(false)
    /// What the clock said (its tempo, where its pulses fall), and the
    /// request count last seen. Realtime thread only.
    var follower = MIDIClockFollower()
    var rollingRequestsSeen: UInt64 = 0
    /// The own clock's generation last cycle (a relocation at an unchanged frame is a jump too).
    var previousClockGeneration: UInt64 = 0

    /// The previous cycle's position and length, to tell a jump from rolling on.
    var previous = TransportPosition()
    var previousFrames: Int64 = 0
    var generation: UInt64 = 0

    init(tempo: Tempo, sampleRate: Double) {
        clock = TransportClock(tempo: tempo, sampleRate: sampleRate)
        requestedTempo = Atomic(tempo.beatsPerMinute.bitPattern)
        requestedMeter = Atomic(Self.meterCode(tempo))
        playingTempo = Atomic(tempo.beatsPerMinute.bitPattern)
        playingMeter = Atomic(Self.meterCode(tempo))
    }

    static func meterCode(_ tempo: Tempo) -> Int { tempo.beatsPerBar * 256 + tempo.beatUnit }

    /// This cycle's position (at its first frame), `frames` long, at `sampleRate`.
    @_noLocks
    mutating func position(frames: Int, sampleRate: Int) -> TransportPosition {
        let following = followsClock.load(ordering: .relaxed)
        // A clock rules, not a timebase master: `transport` then moves the own clock only.
        if following { followsJack.store(false, ordering: .relaxed) }
        var position = (following ? nil : jackPosition()) ?? ownPosition(frames: frames, sampleRate: sampleRate)
        let relocated = following && position.generation != previousClockGeneration
        if following { previousClockGeneration = position.generation }
        let expectedFrame = previous.frame + (previous.speed != 0 ? previousFrames : 0)
        let jumped = generation == 0 || relocated || position.frame != expectedFrame || position.speed != previous.speed
            || position.beatsPerMinute != previous.beatsPerMinute || position.beatsPerBar != previous.beatsPerBar
            || position.beatUnit != previous.beatUnit
        if jumped {
            generation &+= 1
            jumps.wrappingAdd(1, ordering: .relaxed)
        }
        position.generation = generation
        previous = position
        previousFrames = Int64(frames)
        playingTempo.store(position.beatsPerMinute.bitPattern, ordering: .relaxed)
        playingRolling.store(position.speed != 0, ordering: .relaxed)
        playingMeter.store(Int(position.beatsPerBar) &* 256 &+ Int(position.beatUnit), ordering: .relaxed)
        return position
    }

    /// JACK's position when a timebase master gives bar, beat and tick; else nil.
    @_noLocks
    private mutating func jackPosition() -> TransportPosition? {
        guard let client else { return nil }
        var jack = jack_position_t()
        let state = _unsafePerformance { jack_transport_query(client, &jack) }
        // Another client's numbers: anything a conversion would trap on (NaN,
        // infinity, absurd sizes) means no usable position, not a crash here.
        guard jack.valid.rawValue & JackPositionBBT.rawValue != 0,
              jack.beats_per_minute.isFinite, jack.beats_per_minute > 0, jack.beats_per_minute < 10_000,
              jack.beats_per_bar.isFinite, jack.beats_per_bar >= 1, jack.beats_per_bar <= 64 else {
            followsJack.store(false, ordering: .relaxed)
            return nil
        }
        followsJack.store(true, ordering: .relaxed)
        let ticks = jack.ticks_per_beat > 0 ? Double(jack.tick) / jack.ticks_per_beat : 0
        let bar = Int64(jack.bar) - 1, barBeat = Double(jack.beat) - 1 + ticks
        let beatsPerBar = Double(jack.beats_per_bar)
        let beatUnit: Int32 = jack.beat_type.isFinite && jack.beat_type >= 1 && jack.beat_type <= 64
            ? Int32(jack.beat_type) : 4
        return TransportPosition(
            frame: Int64(jack.frame), speed: state == JackTransportRolling ? 1 : 0,
            beatsPerMinute: jack.beats_per_minute, beatsPerBar: beatsPerBar,
            beatUnit: beatUnit, bar: bar, barBeat: barBeat,
            beat: Double(bar) * beatsPerBar + barBeat, generation: 0)
    }

    /// The host's own clock, after the control thread's requests.
    @_noLocks
    private mutating func ownPosition(frames: Int, sampleRate: Int) -> TransportPosition {
        clock.setSampleRate(Double(sampleRate))
        let meter = requestedMeter.load(ordering: .relaxed)
        let beatUnit = meter % 256
        // A clock's tempo counts quarter notes; the meter's beat may be another note.
        let beatsPerMinute = follower.tempo > 0 ? follower.tempo * Double(beatUnit) / 4
            : Double(bitPattern: requestedTempo.load(ordering: .relaxed))
        clock.setTempo(Tempo(beatsPerMinute: beatsPerMinute, beatsPerBar: meter / 256, beatUnit: beatUnit))
        if follower.startsRolling {
            follower.startsRolling = false
            clock.setRolling(true)
        }
        // The beats on the clock's pulses: beat 0 on the first after a start, and after a drift or a new tempo.
        if follower.pulseOffset >= 0, let beat = follower.placement(beat: clock.current.beat, rolling: clock.isRolling,
                                         beatsPerFrame: clock.tempo.beatsPerMinute / (60 * clock.sampleRate),
                                         beatUnit: clock.tempo.beatUnit) {
            clock.relocate(toBeat: beat)
        }
        if !followsClock.load(ordering: .relaxed) {
            clock.setRolling(requestedRolling.load(ordering: .relaxed))
        } else {
            // Under a clock, only a request made since the last cycle (the count, then its value).
            let requests = rollingRequests.load(ordering: .acquiring)
            if requests != rollingRequestsSeen {
                rollingRequestsSeen = requests
                clock.setRolling(requestedRolling.load(ordering: .relaxed))
            }
        }
        return clock.position(advancingBy: frames)
    }

    // MARK: A MIDI clock (realtime thread, before `position`)

    /// From the clock's first message on; requests made before it are not new to it.
    @_noLocks
    private mutating func beginFollowing() {
        guard !followsClock.load(ordering: .relaxed) else { return }
        rollingRequestsSeen = rollingRequests.load(ordering: .acquiring)
        followsClock.store(true, ordering: .relaxed)
    }

    /// A pulse arrived `offset` frames into the cycle; `quarterNotesPerMinute`
    /// is the tempo the pulses give so far (nil before a second pulse: the tempo stays);
    /// `pulses`: how many it counts for (more when an xrun lost some just before);
    /// `afterMissedCycles`: the server ran cycles without fxhost since the last pulse
    /// (`lostBeforeStart`: before the start or continue this pulse is the first of).
    @_noLocks
    mutating func clockPulse(quarterNotesPerMinute: Double?, offset: Int = 0, pulses: Int = 1,
                             afterMissedCycles: Bool = false, lostBeforeStart: Bool = false) {
        beginFollowing()
        follower.pulse(estimate: quarterNotesPerMinute, offset: offset, pulses: pulses, afterMissedCycles: afterMissedCycles,
                       lostBeforeStart: lostBeforeStart)
        if follower.tempo > 0 { clockGivesTempo.store(true, ordering: .relaxed) }
    }

    /// Start (0xFA): from the song's start, held there until the clock's
    /// next pulse, where beat 0 falls (rolling from then).
    @_noLocks
    mutating func clockStart() {
        beginFollowing()
        follower.start()
        clock.relocate(toBeat: 0)
        clock.setRolling(false)
    }

    /// Continue (0xFB): rolling on from the clock's next pulse, at its
    /// place (from where it is at once when no place is known); stop (0xFC): held there.
    @_noLocks
    mutating func clockRolling(_ rolling: Bool) {
        beginFollowing()
        if rolling {
            if !follower.resume() { clock.setRolling(true) }
        } else {
            follower.stop()
            clock.setRolling(false)
        }
    }

    /// Song position (0xF2): `sixteenths` sixteenth notes from the start.
    @_noLocks
    mutating func clockSongPosition(sixteenths: Int) {
        beginFollowing()
        follower.songPosition(quarters: Double(sixteenths) / 4)
        let beatUnit = requestedMeter.load(ordering: .relaxed) % 256
        clock.relocate(toBeat: Double(sixteenths) * Double(beatUnit) / 16)
    }
}
