import CJack
import HostCore
import Synchronization

// Called by: the realtime thread (`runLiveCycle` calls `sendMIDIFeedback`
// at each cycle's end; `LiveMIDIInput` tells it what a controller set); the
// control thread sets the port before activation and asks for a resend.

/// MIDI feedback: every mapped parameter's value (and mapped bypass) sent
/// back on `fxhost:midi_feedback` as its controller, the inverse of its
/// mapping, so LED rings and motor faders show a change made anywhere.
/// Polling the mapped values at each cycle's end catches every source (a
/// command, a scene, a preset, a reloaded patch) with no hook in each; a
/// value is sent only when its controller value differs from the last one
/// sent on that controller and channel, so a burst in one cycle is one
/// message, the latest, and two mappings of one controller send one
/// message, the later mapping's. A controller's own move is recorded as sent, so it
/// is not echoed back to the hand that moved it.
package struct MIDIFeedback: ~Copyable {
    /// Mappings (in table order) whose last seen values are kept; beyond
    /// it a mapping is compared each cycle by its controller value alone.
    package static let trackedMappings = 512
    /// The JACK MIDI output (nil: the patch has no `output:`), set before the client is activated.
    var port: OpaquePointer? = nil
    /// The controller value last sent on each channel (0...15) × controller
    /// (0...127); `unsent` when nothing was.
    private let sent: UnsafeMutableBufferPointer<UInt8>
    /// This cycle's value per channel × controller (`unsent`: none yet), and
    /// the slots that have one, in the order first met: two mappings of one
    /// controller send one message, the later mapping's value.
    private let pending: UnsafeMutableBufferPointer<UInt8>
    private let pendingSlots: UnsafeMutableBufferPointer<UInt16>
    /// Each tracked mapping's value (its bit pattern) last looked at, for the table `seenGeneration`.
    private let seen: UnsafeMutableBufferPointer<UInt32>
    private let seenGeneration: UnsafeMutablePointer<Int32>
    /// Per controller (0...127): the channel (1...16) it was last heard on,
    /// 0 before; a mapping of any channel answers there. Kept across tables
    /// (a `learn`, a reload): it is the controller's, not a mapping's.
    private let heardChannel: UnsafeMutableBufferPointer<UInt8>
    /// Set by the control thread (`feedback`, and once the ports are
    /// connected): send every mapped value again.
    let resendRequested = Atomic<Bool>(false)
    /// Nothing is sent before the first request: what a cycle sent before
    /// the connections were made would reach no one, or arrive twice.
    private let started: UnsafeMutablePointer<Bool>
    private static var unsent: UInt8 { 0xFF }
    /// Not a value any mapping stores (a NaN's bit pattern): looked at again.
    private static var unseen: UInt32 { 0x7FC0_DEAD }

    init() {
        sent = .allocate(capacity: 16 * 128)
        sent.initialize(repeating: Self.unsent)
        pending = .allocate(capacity: 16 * 128)
        pending.initialize(repeating: Self.unsent)
        pendingSlots = .allocate(capacity: 16 * 128)
        pendingSlots.initialize(repeating: 0)
        seen = .allocate(capacity: Self.trackedMappings)
        seen.initialize(repeating: Self.unseen)
        seenGeneration = .allocate(capacity: 1)
        seenGeneration.initialize(to: -1)
        heardChannel = .allocate(capacity: 128)
        heardChannel.initialize(repeating: 0)
        started = .allocate(capacity: 1)
        started.initialize(to: false)
    }

    deinit {
        sent.deallocate()
        pending.deallocate()
        pendingSlots.deallocate()
        seen.deallocate()
        seenGeneration.deallocate()
        heardChannel.deallocate()
        started.deallocate()
    }

    /// The message that shows `value` for a mapping of `controller` on
    /// `channel` (1...16; 0: unknown, sent on channel 1) with `scale`: a
    /// control change, the inverse of the scale.
    @_noLocks
    package static func message(controller: UInt8, channel: UInt8, scale: MIDIControllerScale, value: Float)
        -> (status: UInt8, controller: UInt8, value: UInt8) {
        let channelBits = channel == 0 ? 0 : min(channel, 16) - 1
        return (0xB0 | channelBits, controller & 0x7F, scale.controller(value: value))
    }

    /// A mapping's message: on its channel, or for any channel on the one
    /// its controller was last heard on (channel 1 until it is).
    @_noLocks
    private func message(for entry: MIDIControlTable.Controller, value: Float) -> (status: UInt8, controller: UInt8, value: UInt8) {
        let channel = entry.channel != 0 ? entry.channel : heardChannel[Int(entry.controller & 0x7F)]
        return Self.message(controller: entry.controller, channel: channel, scale: entry.scale, value: value)
    }

    /// The `sent` slot of `message`: its channel and controller.
    @_noLocks
    private static func slot(of message: (status: UInt8, controller: UInt8, value: UInt8)) -> Int {
        Int(message.status & 0x0F) * 128 + Int(message.controller)
    }

    /// A controller on `channel` (1...16) moved `entry` to `value` (its
    /// goal, when smoothed): the controller shows it already, so it counts
    /// as sent; mappings of any channel answer on this one from now on.
    @_noLocks
    func heard(_ entry: MIDIControlTable.Controller, channel: UInt8, value: Float) {
        guard port != nil else { return }
        heardChannel[Int(entry.controller & 0x7F)] = min(max(channel, 1), 16)
        let message = message(for: entry, value: value)
        sent[Self.slot(of: message)] = message.value
    }

    /// Writes this cycle's feedback into the port's buffer: each mapping
    /// whose value changed since it was last looked at, when its controller
    /// value is not the one last sent. A full buffer keeps the rest for the
    /// next cycle.
    @_noLocks
    func send(table: MIDIControlTable?, ramps: MIDIRampSlots, frames: UInt32) {
        guard let port else { return }
        let buffer = _unsafePerformance { jack_port_get_buffer(port, frames) }
        guard let buffer else { return }
        _unsafePerformance { jack_midi_clear_buffer(buffer) }
        if resendRequested.exchange(false, ordering: .relaxed) {
            for index in 0..<sent.count { sent[index] = Self.unsent }
            seenGeneration.pointee = -1
            started.pointee = true
        }
        guard started.pointee, let table else { return }
        if seenGeneration.pointee != table.generation {
            // A new table (a reloaded patch, a `learn`): its values looked at afresh.
            for index in 0..<seen.count { seen[index] = Self.unseen }
            seenGeneration.pointee = table.generation
        }
        var pendingCount = 0
        for index in 0..<table.controllers.count {
            let entry = table.controllers[index]
            // What is stored now, compared before anything is looked up: a
            // value that has not moved since the last cycle costs one load.
            var value: Float
            if let target = entry.value {
                value = target.pointee
            } else if let flag = entry.flag {
                value = flag.pointee != 0 ? entry.scale.high : entry.scale.low
            } else {
                continue  // tap tempo, a morph: no value of its own to show
            }
            let tracked = index < seen.count
            let stored = value.bitPattern
            if tracked && seen[index] == stored { continue }
            // On a knob's ramp, its goal: the controller shows it already.
            if entry.smoothed, let target = entry.value, let goal = ramps.goal(of: target) { value = goal }
            let message = message(for: entry, value: value)
            let slot = Self.slot(of: message)
            if pending[slot] == Self.unsent {
                pendingSlots[pendingCount] = UInt16(slot)
                pendingCount += 1
            }
            pending[slot] = message.value
            if tracked { seen[index] = stored }
        }
        for item in 0..<pendingCount {
            let slot = Int(pendingSlots[item])
            let value = pending[slot]
            pending[slot] = Self.unsent
            guard sent[slot] != value else { continue }
            let room = _unsafePerformance { jack_midi_event_reserve(buffer, 0, 3) }
            guard let room else {
                // A full buffer: every value is looked at again next cycle (what was sent is not sent twice).
                seenGeneration.pointee = -1
                continue
            }
            room[0] = 0xB0 | UInt8(slot / 128)
            room[1] = UInt8(slot % 128)
            room[2] = value
            sent[slot] = value
        }
    }
}

/// The cycle's MIDI feedback, after the block rendered (see `MIDIFeedback`):
/// one branch when the session has no feedback output.
@_noLocks
func sendMIDIFeedback(_ state: UnsafeMutablePointer<LiveEngineState>, frames: UInt32) {
    guard state.pointee.midiFeedback.port != nil else { return }
    state.pointee.midiFeedback.send(table: state.pointee.current?.pointee.midi, ramps: state.pointee.midiRamps.slots, frames: frames)
}
