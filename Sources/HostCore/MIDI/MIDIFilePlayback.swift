import Foundation

// Called by: the thread that renders (`fill`, `fillNext`); made, sought and
// freed on the control thread.

/// A MIDI file's events placed on the timeline in frames, played into a
/// plan's MIDI list block by block: offline by the render's timeline frame
/// (`fill`), live from where the last block ended (`fillNext`). Plain
/// memory, no allocation while it plays.
package struct MIDIFilePlayback {
    /// Timeline frame of each event, in time order.
    @usableFromInline let frames: UnsafeMutableBufferPointer<Int>
    @usableFromInline let events: UnsafeMutableBufferPointer<MIDIEvent>
    /// The next event to play.
    @usableFromInline var cursor = 0
    /// Live: the timeline frame the next block starts at.
    package var position = 0
    /// Where the file ends on the timeline (its End of Track), in frames.
    package let endFrame: Int
    /// Per chased value (`chaseSlot`), the last passed event that set it:
    /// scratch for `chase`, allocated once.
    @usableFromInline let lastSetting: UnsafeMutableBufferPointer<Int32>
    /// Events were passed over (`skip`): the next block first sends what they left set.
    @usableFromInline var chasePending = false

    /// `startFrame`: where the file starts on the timeline.
    package init(file: StandardMIDIFile, startFrame: Int, sampleRate: Double) {
        let kept = file.events.filter { !$0.bytes.isEmpty && $0.bytes.count <= 3 }
        frames = .allocate(capacity: kept.count)
        events = .allocate(capacity: kept.count)
        for (index, event) in kept.enumerated() {
            frames[index] = startFrame + StandardMIDIFile.frame(of: event.seconds, sampleRate: sampleRate)
            let bytes = event.bytes
            events[index] = MIDIEvent(frame: 0, size: UInt8(bytes.count), status: bytes[0],
                                      data1: bytes.count > 1 ? bytes[1] : 0, data2: bytes.count > 2 ? bytes[2] : 0)
        }
        endFrame = startFrame + StandardMIDIFile.frame(of: file.seconds, sampleRate: sampleRate)
        lastSetting = .allocate(capacity: Self.chaseSlots)
        lastSetting.initialize(repeating: -1)
    }

    package func deallocate() {
        frames.deallocate()
        events.deallocate()
        lastSetting.deallocate()
    }

    /// The next block starts at `timelineFrame`: events before it are passed over.
    package mutating func seek(timelineFrame: Int) {
        cursor = 0
        while cursor < frames.count && frames[cursor] < timelineFrame { cursor += 1 }
        position = timelineFrame
    }

    /// Live: passes over the next `count` frames' events without playing
    /// them (a restarted engine catching up with the clock). What they set
    /// (controllers, programs, pitch bend, channel pressure) is sent at the
    /// start of the next block (`chase`), as a sequencer chases a song
    /// started in its middle; notes are not.
    @inlinable @_noLocks
    package mutating func skip(frames count: Int) {
        position += count
        let from = cursor
        while cursor < frames.count && frames[cursor] < position { cursor += 1 }
        if cursor > from { chasePending = true }
    }

    /// Values a channel message keeps: 128 controllers, then a program,
    /// channel pressure and pitch bend, for each of 16 channels.
    @usableFromInline static let chaseSlots = 16 * 128 + 3 * 16

    /// Which value `event` sets, or -1 (a note, anything else). Data entry
    /// and its parameter numbers (controllers 6, 38 and 96 to 101) mean
    /// something only in their sequence: they are not chased.
    @inlinable @_noLocks
    static func chaseSlot(_ event: MIDIEvent) -> Int {
        let channel = Int(event.status & 0x0F)
        switch event.status & 0xF0 {
        case 0xB0:
            let controller = Int(event.data1 & 0x7F)
            if controller == 6 || controller == 38 || (96...101).contains(controller) { return -1 }
            return channel * 128 + controller
        case 0xC0: return 16 * 128 + channel
        case 0xD0: return 16 * 128 + 16 + channel
        case 0xE0: return 16 * 128 + 32 + channel
        default: return -1
        }
    }

    /// Into `list` at frame 0: the last event before the cursor for each
    /// value one sets, in the file's order (a bank select stays before its
    /// program change), at most half the list, so the block's own events
    /// still fit. Two passes over the events passed, once per skip.
    @inlinable @_noLocks
    mutating func chase(_ list: UnsafeMutablePointer<MIDIEventList>) {
        chasePending = false
        for slot in 0..<lastSetting.count { lastSetting[slot] = -1 }
        for index in 0..<cursor {
            let slot = Self.chaseSlot(events[index])
            if slot >= 0 { lastSetting[slot] = Int32(truncatingIfNeeded: index) }
        }
        for index in 0..<cursor {
            let slot = Self.chaseSlot(events[index])
            guard slot >= 0, lastSetting[slot] == Int32(truncatingIfNeeded: index) else { continue }
            guard list.pointee.count < list.pointee.capacity / 2 else {
                list.pointee.dropped &+= 1
                continue
            }
            var event = events[index]
            event.frame = 0
            list.pointee.insert(event)
        }
    }

    /// Puts the events of timeline frames `timelineFrame ..< timelineFrame + frames`
    /// into `list` (emptied first), each at its frame within the block plus
    /// `offset` (live: where this chunk starts in the cycle).
    @inlinable @_noLocks
    package mutating func fill(_ list: UnsafeMutablePointer<MIDIEventList>, timelineFrame: Int, frames count: Int) {
        list.pointee.removeAll()
        playInto(list, from: timelineFrame, frames: count)
    }

    /// Live: the next `count` frames from where the last block ended.
    @inlinable @_noLocks
    package mutating func fillNext(_ list: UnsafeMutablePointer<MIDIEventList>, frames count: Int) {
        list.pointee.removeAll()
        if chasePending { chase(list) }
        playInto(list, from: position, frames: count)
        position += count
    }

    @inlinable @_noLocks
    mutating func playInto(_ list: UnsafeMutablePointer<MIDIEventList>, from start: Int, frames count: Int) {
        let end = start + count
        while cursor < frames.count && frames[cursor] < end {
            if frames[cursor] >= start {
                var event = events[cursor]
                event.frame = UInt32(frames[cursor] - start)
                list.pointee.insert(event)
            }
            cursor += 1
        }
    }
}

extension StandardMIDIFile {
    /// Whether the file at `path` begins as a Standard MIDI File does (`MThd`).
    /// Only a regular file is opened (see `RegularFile`): anything else is
    /// not one, and whoever opens it next says why.
    package static func isStandardMIDIFile(path: String) -> Bool {
        guard let descriptor = try? RegularFile.openForReading(path) else { return false }
        defer { close(descriptor) }
        var magic = [UInt8](repeating: 0, count: 4)
        let got = magic.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, 4) }
        return got == 4 && magic == Array("MThd".utf8)
    }
}
