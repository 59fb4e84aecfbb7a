// Called by: the realtime thread only (`applyMIDIControl`, twice a cycle
// with MIDI control input); allocated and freed off it.

/// Which of a cycle's MIDI control events are the last of their kind: the
/// last control change of each channel and controller, and the last program
/// change. Only those are applied (a tap of tap tempo excepted), in the
/// events' order: what an earlier one would store is overwritten within the
/// same block anyway, and a burst from a hostile or runaway client then costs
/// one scene, one morph, one ramp per controller, not one per event.
struct LatestMIDIEvents: ~Copyable {
    /// Per channel (0...15) × controller (0...127): the cycle stamp in the
    /// high 32 bits and the event's index in the low 32.
    private let controllers: UnsafeMutableBufferPointer<UInt64>
    private let scratch: UnsafeMutablePointer<(cycle: UInt32, program: Int64)>

    init() {
        controllers = .allocate(capacity: 16 * 128)
        controllers.initialize(repeating: 0)
        scratch = .allocate(capacity: 1)
        scratch.initialize(to: (cycle: 0, program: -1))
    }

    deinit {
        controllers.deallocate()
        scratch.deallocate()
    }

    /// Starts a cycle's marking: what earlier cycles marked no longer counts.
    @_noLocks
    func beginCycle() {
        scratch.pointee.cycle &+= 1
        scratch.pointee.program = -1
    }

    /// Event `index` is a control change of `controller` on `channelIndex` (0...15).
    @_noLocks
    func markController(_ controller: UInt8, channelIndex: UInt8, index: UInt32) {
        controllers[Int(channelIndex & 0x0F) * 128 + Int(controller & 0x7F)] =
            UInt64(scratch.pointee.cycle) << 32 | UInt64(index)
    }

    /// Event `index` is a program change.
    @_noLocks
    func markProgram(index: UInt32) { scratch.pointee.program = Int64(index) }

    @_noLocks
    func isLastController(_ controller: UInt8, channelIndex: UInt8, index: UInt32) -> Bool {
        controllers[Int(channelIndex & 0x0F) * 128 + Int(controller & 0x7F)] ==
            UInt64(scratch.pointee.cycle) << 32 | UInt64(index)
    }

    @_noLocks
    func isLastProgram(index: UInt32) -> Bool { scratch.pointee.program == Int64(index) }
}
