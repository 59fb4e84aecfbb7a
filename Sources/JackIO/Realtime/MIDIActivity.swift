import HostCore
import Synchronization

// Called by: the realtime thread pushes (`LiveMIDIInput`); the control
// thread drains (`LiveSession.drainMIDI`).

/// What the realtime thread did with a MIDI message, for the control thread
/// to announce: it never announces itself.
package struct MIDIActivity {
    package enum Kind: UInt8 {
        /// Mapping `index` of table `generation` stored `value` (its goal, when smoothed).
        case parameter
        /// Mapping `index` set its bypass to `value` (0 or 1).
        case bypass
        /// Scene `index` of table `generation` was applied.
        case scene
        /// While learning: a controller moved (`controller`, `channel` 1...16, `value`).
        case controllerSeen
        /// A controller mapped to `tempo:tap` was pressed (a value from 64) at
        /// JACK frame time `frameTime`: the host makes the tempo of the taps' frames.
        case tempoTap
        /// A program change no scene took (`index`: the program, 0–127), reported
        /// only while the engine asks for them (a setlist run switches patches).
        case program
    }

    package var kind: Kind
    package var generation: Int32
    package var index: Int32
    package var value: Float
    package var controller: UInt8
    package var channel: UInt8
    /// The JACK frame time the event arrived at (`tempoTap`; 0 for the others).
    package var frameTime: UInt32

    @_noLocks
    package init(kind: Kind, generation: Int32, index: Int32, value: Float, controller: UInt8, channel: UInt8,
                 frameTime: UInt32 = 0) {
        self.kind = kind
        self.generation = generation
        self.index = index
        self.value = value
        self.controller = controller
        self.channel = channel
        self.frameTime = frameTime
    }
}

/// Called by: the realtime thread pushes; one control thread drains.
///
/// The realtime thread's reports of MIDI it applied: an `SPSCRing` whose
/// slot is one `MIDIActivity`. A full ring drops and counts.
package struct MIDIActivityRing: ~Copyable {
    private let ring: SPSCRing
    /// Reports dropped because the ring was full (the values were still applied).
    package let dropped = Atomic<Int>(0)

    package init(capacity: Int) {
        ring = SPSCRing(capacity: capacity, slotSize: MemoryLayout<MIDIActivity>.stride,
                        alignment: max(MemoryLayout<MIDIActivity>.alignment, 16))
    }

    deinit {
        ring.deallocate()
    }

    @_noLocks
    package func push(_ activity: MIDIActivity) {
        guard let span = ring.reserve(1) else {
            dropped.wrappingAdd(1, ordering: .relaxed)
            return
        }
        span.first.initializeMemory(as: MIDIActivity.self, to: activity)
        ring.publish(1)
    }

    /// Control thread: every report pushed so far, oldest first.
    package func drain() -> [MIDIActivity] {
        let span = ring.readable()
        var taken: [MIDIActivity] = []
        taken.reserveCapacity(span.count)
        for (start, count) in [(span.first, span.firstCount), (span.second, span.secondCount)] {
            let slots = start.assumingMemoryBound(to: MIDIActivity.self)
            for index in 0..<count { taken.append(slots[index]) }
        }
        ring.release(span.count)
        return taken
    }
}
