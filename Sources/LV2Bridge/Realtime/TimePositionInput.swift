import CLilv
import HostCore

// Called by: the thread that renders (the realtime thread live): `fill`
// before the plugin's run, `connect` when the plan connects its ports. Made
// by `LV2Instance` on the control thread, in the instance's arena.

/// Tells one instance where the music is: the plan's `TransportPosition`
/// drives the plugin's control ports designated `time:beatsPerMinute` and
/// `time:speed` every block, and, when the position jumps (its generation
/// changes: a start, a relocation, a new tempo, meter or speed), a
/// `time:Position` object forged with LV2's forge is appended at frame 0 to
/// the atom input that `atom:supports time:Position`. In between, the
/// plugin counts frames itself, as LV2's time extension expects.
struct TimePositionInput {
    /// The plan's transport cell, set by `connect` on the rendering thread.
    var transport: UnsafePointer<TransportPosition>?
    /// The generation last sent (0: nothing sent yet).
    var sentGeneration: UInt64 = 0
    /// The atom input to send to (set once, before the first run); nil when
    /// the plugin has only time controls.
    var sequence: UnsafeMutablePointer<LV2_Atom_Sequence>?
    var capacity: UInt32
    /// Where the controls designated time:beatsPerMinute and time:speed are connected.
    let beatsPerMinute: UnsafeMutablePointer<Float>
    let speed: UnsafeMutablePointer<Float>
    /// One event, forged here then appended: its frame, then the object.
    let event: UnsafeMutableRawPointer
    let forge: UnsafeMutablePointer<LV2_Atom_Forge>
    let frame: UnsafeMutablePointer<LV2_Atom_Forge_Frame>
    let urids: TimeURIDs

    /// Bytes of the event buffer: the header and eight properties take 216.
    static let eventBytes = 512

    /// A time input in `arena`, its forge set up with `map` (off the realtime thread).
    static func make(sequence: UnsafeMutablePointer<LV2_Atom_Sequence>?, capacity: UInt32, arena: CArena,
                     urids: URIDMap, map: UnsafeMutablePointer<LV2_URID_Map>) -> UnsafeMutablePointer<TimePositionInput> {
        let forge = arena.allocate(LV2_Atom_Forge.self, count: 1)
        lv2_atom_forge_init(forge, map)
        let controls = arena.allocate(Float.self, count: 2)
        controls[0] = 120
        return arena.store(TimePositionInput(
            sequence: sequence, capacity: capacity, beatsPerMinute: controls, speed: controls + 1,
            event: UnsafeMutableRawPointer(arena.allocate(UInt64.self, count: eventBytes / 8)), forge: forge,
            frame: arena.allocate(LV2_Atom_Forge_Frame.self, count: 1), urids: TimeURIDs(urids)))
    }

    /// The kernel hook: `fill` on the context.
    static let hook: KernelHookFunction = { context in fill(context: context) }

    /// The plan's connection to its transport cell (`ProcessorKernel.transportConnections`).
    static let connect: KernelConnectFunction = { handle, _, data in connectTransport(handle, data) }

    @_noLocks
    static func fill(context: UnsafeMutableRawPointer?) {
        guard let context else { return }
        fill(context.assumingMemoryBound(to: TimePositionInput.self))
    }

    @_noLocks
    static func connectTransport(_ handle: UnsafeMutableRawPointer?, _ data: UnsafeMutableRawPointer?) {
        guard let handle else { return }
        let input = handle.assumingMemoryBound(to: TimePositionInput.self)
        if let data {
            input.pointee.transport = UnsafePointer(data.assumingMemoryBound(to: TransportPosition.self))
        } else {
            input.pointee.transport = nil
        }
    }

    @_noLocks
    static func fill(_ input: UnsafeMutablePointer<TimePositionInput>) {
        guard let transport = input.pointee.transport else { return }
        let position = transport.pointee
        // No driver has written a position yet (a program run by hand).
        guard position.generation != 0 else { return }
        input.pointee.beatsPerMinute.pointee = Float(position.beatsPerMinute)
        input.pointee.speed.pointee = Float(position.speed)
        guard position.generation != input.pointee.sentGeneration, let sequence = input.pointee.sequence else { return }
        guard forgePosition(input, position) else { return }
        let appended = _unsafePerformance {
            lv2_atom_sequence_append_event(sequence, input.pointee.capacity,
                                           input.pointee.event.assumingMemoryBound(to: LV2_Atom_Event.self))
        }
        // No room this block (other events filled it): send it with the next one.
        if appended != nil { input.pointee.sentGeneration = position.generation }
    }

    /// Forges the position into `event` (frame 0, then a time:Position
    /// object), as jalv, Ardour and Carla send it. False if it did not fit.
    @_noLocks
    private static func forgePosition(_ input: UnsafeMutablePointer<TimePositionInput>,
                                      _ position: TransportPosition) -> Bool {
        let forge = input.pointee.forge, frame = input.pointee.frame, urids = input.pointee.urids
        let event = input.pointee.event
        event.storeBytes(of: Int64(0), as: Int64.self) // the event's time, in frames
        let body = event + MemoryLayout<Int64>.size
        return _unsafePerformance {
            lv2_atom_forge_set_buffer(forge, body.assumingMemoryBound(to: UInt8.self), eventBytes - 8)
            guard lv2_atom_forge_object(forge, frame, 0, urids.position) != 0 else { return false }
            lv2_atom_forge_key(forge, urids.frame)
            lv2_atom_forge_long(forge, position.frame)
            lv2_atom_forge_key(forge, urids.speed)
            lv2_atom_forge_float(forge, Float(position.speed))
            lv2_atom_forge_key(forge, urids.bar)
            lv2_atom_forge_long(forge, position.bar)
            lv2_atom_forge_key(forge, urids.barBeat)
            lv2_atom_forge_float(forge, Float(position.barBeat))
            lv2_atom_forge_key(forge, urids.beat)
            lv2_atom_forge_double(forge, position.beat)
            lv2_atom_forge_key(forge, urids.beatUnit)
            lv2_atom_forge_int(forge, position.beatUnit)
            lv2_atom_forge_key(forge, urids.beatsPerBar)
            lv2_atom_forge_float(forge, Float(position.beatsPerBar))
            lv2_atom_forge_key(forge, urids.beatsPerMinute)
            let last = lv2_atom_forge_float(forge, Float(position.beatsPerMinute))
            lv2_atom_forge_pop(forge, frame)
            return last != 0
        }
    }
}

/// The URIDs a `time:Position` is forged with.
struct TimeURIDs {
    let position, frame, speed, bar, barBeat, beat, beatUnit, beatsPerBar, beatsPerMinute: LV2_URID

    init(_ urids: URIDMap) {
        position = urids.map(LV2URI.timePosition)
        frame = urids.map(LV2URI.timeFrame)
        speed = urids.map(LV2URI.timeSpeed)
        bar = urids.map(LV2URI.timeBar)
        barBeat = urids.map(LV2URI.timeBarBeat)
        beat = urids.map(LV2URI.timeBeat)
        beatUnit = urids.map(LV2URI.timeBeatUnit)
        beatsPerBar = urids.map(LV2URI.timeBeatsPerBar)
        beatsPerMinute = urids.map(LV2URI.timeBeatsPerMinute)
    }
}
