// Called by: the thread that renders (the realtime thread live, the render
// thread offline); made by the compiler on the control thread.

/// One short MIDI message (a channel message: 1 to 3 bytes) at a frame of
/// the block. System exclusive does not fit and is dropped where it arrives.
package struct MIDIEvent: Equatable {
    /// Frames from the start of the block.
    package var frame: UInt32
    /// 1 to 3.
    package var size: UInt8
    package var status: UInt8
    package var data1: UInt8
    package var data2: UInt8

    @inlinable @_noLocks
    package init(frame: UInt32, size: UInt8, status: UInt8, data1: UInt8 = 0, data2: UInt8 = 0) {
        self.frame = frame
        self.size = size
        self.status = status
        self.data1 = data1
        self.data2 = data2
    }

    /// The data bytes a status byte's channel message carries (0 for
    /// anything that is not a channel message: sysex and system messages).
    @inlinable
    package static func dataCount(status: UInt8) -> Int {
        switch status & 0xF0 {
        case 0x80, 0x90, 0xA0, 0xB0, 0xE0: return 2
        case 0xC0, 0xD0: return 1
        default: return -1
        }
    }
}

/// A block's MIDI events in time order, in preallocated memory: what a MIDI
/// connection carries through a plan. Full, it drops and counts: the
/// realtime thread never allocates for a burst.
package struct MIDIEventList {
    /// Events a list holds per block; a burst beyond it is dropped and counted.
    package static let capacityPerBlock = 1024

    package var count: Int
    package let capacity: Int
    /// Events that did not fit, since the plan was made.
    package var dropped: Int
    package let events: UnsafeMutablePointer<MIDIEvent>

    package init(events: UnsafeMutablePointer<MIDIEvent>, capacity: Int) {
        self.events = events
        self.capacity = capacity
        count = 0
        dropped = 0
    }

    @inlinable @_noLocks
    package mutating func removeAll() { count = 0 }

    /// Inserts `event` after every event at or before its frame, so the
    /// list stays in time order and events at one frame keep their order.
    @inlinable @_noLocks
    package mutating func insert(_ event: MIDIEvent) {
        guard count < capacity else {
            dropped &+= 1
            return
        }
        var position = count
        while position > 0 && events[position - 1].frame > event.frame {
            events[position] = events[position - 1]
            position -= 1
        }
        events[position] = event
        count += 1
    }

    /// Inserts every event of `other` (merging two streams).
    @inlinable @_noLocks
    package mutating func merge(_ other: UnsafePointer<MIDIEventList>) {
        let source = other.pointee
        for index in 0..<source.count { insert(source.events[index]) }
    }
}

/// `function(context, list, frames)`: a plugin's MIDI port's work for the
/// block. For an input, the list's events go into the port (after the
/// kernel's `fillBeforeRun` hooks, so after a unit's own frame-0 events);
/// for an output, what the plugin wrote in its run goes into the list.
/// The list is an `UnsafeMutablePointer<MIDIEventList>`.
package typealias KernelMIDIFunction = @convention(c) (UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, UInt32) -> Void

/// One MIDI port of a kernel as the realtime thread sees it.
package struct KernelMIDIPort {
    package var function: KernelMIDIFunction
    package var context: UnsafeMutableRawPointer?

    package init(function: KernelMIDIFunction, context: UnsafeMutableRawPointer?) {
        self.function = function
        self.context = context
    }
}
