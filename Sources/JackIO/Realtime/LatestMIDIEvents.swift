// Called by: the realtime thread only (`applyMIDIControl`: a marking pass
// over the cycle's events, then the applying pass); allocated and freed off it.

/// Which of a cycle's MIDI control events are the last of their kind: the
/// last control change of each channel and controller, and the last program
/// change of each channel. Only those are applied (a tap of tap tempo
/// excepted), in the events' order: what an earlier one would store is
/// overwritten within the same block anyway, and a burst from a hostile or
/// runaway client then costs one scene per channel, one morph, one ramp per
/// controller, not one per event.
struct LatestMIDIEvents: ~Copyable {
    /// Per channel (0...15) × controller (0...127): the cycle stamp in the
    /// high 32 bits and the event's index in the low 32.
    private let controllers: UnsafeMutableBufferPointer<UInt64>
    /// The cycle stamp; each channel's last program change, in the same form as `controllers`.
    private let cycle: UnsafeMutablePointer<UInt32>
    private let programs: UnsafeMutableBufferPointer<UInt64>

    init() {
        controllers = .allocate(capacity: 16 * 128)
        controllers.initialize(repeating: 0)
        cycle = .allocate(capacity: 1)
        cycle.initialize(to: 0)
        programs = .allocate(capacity: 16)
        programs.initialize(repeating: 0)
    }

    deinit {
        controllers.deallocate()
        cycle.deallocate()
        programs.deallocate()
    }

    /// Starts a cycle's marking: what earlier cycles marked no longer counts.
    @_noLocks
    func beginCycle() {
        // Never 0, which the slots start at: a stamp only this cycle's marks carry.
        cycle.pointee = cycle.pointee == UInt32.max ? 1 : cycle.pointee + 1
    }

    @_noLocks
    private func mark(_ index: UInt32) -> UInt64 { UInt64(cycle.pointee) << 32 | UInt64(index) }

    /// Event `index` is a control change of `controller` on `channelIndex` (0...15).
    @_noLocks
    func markController(_ controller: UInt8, channelIndex: UInt8, index: UInt32) {
        controllers[Int(channelIndex & 0x0F) * 128 + Int(controller & 0x7F)] = mark(index)
    }

    /// Event `index` is a program change on `channelIndex` (0...15).
    @_noLocks
    func markProgram(channelIndex: UInt8, index: UInt32) { programs[Int(channelIndex & 0x0F)] = mark(index) }

    @_noLocks
    func isLastController(_ controller: UInt8, channelIndex: UInt8, index: UInt32) -> Bool {
        controllers[Int(channelIndex & 0x0F) * 128 + Int(controller & 0x7F)] == mark(index)
    }

    @_noLocks
    func isLastProgram(channelIndex: UInt8, index: UInt32) -> Bool { programs[Int(channelIndex & 0x0F)] == mark(index) }
}
