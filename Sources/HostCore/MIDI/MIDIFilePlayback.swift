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
    }

    package func deallocate() {
        frames.deallocate()
        events.deallocate()
    }

    /// The next block starts at `timelineFrame`: events before it are passed over.
    package mutating func seek(timelineFrame: Int) {
        cursor = 0
        while cursor < frames.count && frames[cursor] < timelineFrame { cursor += 1 }
        position = timelineFrame
    }

    /// Live: passes over the next `count` frames' events without playing
    /// them (a restarted engine catching up with the clock).
    @inlinable @_noLocks
    package mutating func skip(frames count: Int) {
        position += count
        while cursor < frames.count && frames[cursor] < position { cursor += 1 }
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
