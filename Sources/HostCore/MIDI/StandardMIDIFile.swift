import Foundation

/// A Standard MIDI File (format 0 or 1), read whole: its tracks' channel
/// messages placed on one timeline in seconds, tempo changes honoured.
///
/// Our own small reader rather than a library: the format is a header, a
/// list of tracks and three kinds of event, and Debian's libsmf (unchanged
/// since 2010) would bring GLib for it. Tested against files written by
/// PyPI's `mido` and the times `mido` computes for them.
package struct StandardMIDIFile: Equatable, Sendable {
    /// One channel message (note on or off, controller, program change,
    /// pitch bend, …) at its time. System exclusive and meta events other
    /// than tempo are not kept.
    package struct Event: Equatable, Sendable {
        /// From the start of the file, tempo changes applied.
        package var seconds: Double
        /// Status byte first, then one or two data bytes.
        package var bytes: [UInt8]
        /// The track it came from (from 0), which breaks ties in time.
        package var track: Int
    }

    /// 0: one track; 1: several tracks played together.
    package var format: Int
    package var ticksPerQuarterNote: Int
    /// Every track's channel messages, by time, then track, then order in the track.
    package var events: [Event]
    /// Where the last track ends (its End of Track event), in seconds.
    package var seconds: Double

    /// The event's first frame at `sampleRate`: the nearest frame to its time.
    package static func frame(of seconds: Double, sampleRate: Double) -> Int {
        Int((seconds * sampleRate).rounded())
    }

    /// MIDI files worth playing are small; a bigger one is a mistake.
    static let sizeLimit = 64 << 20

    /// Reads the file at `path`, which must be a regular file (a FIFO, a
    /// device or a directory is refused before it is opened: see `RegularFile`).
    package init(path: String) throws(MIDIFileError) {
        let bytes: [UInt8]
        do {
            bytes = try RegularFile.read(path, limit: Self.sizeLimit)
        } catch {
            if let message = error.systemMessage {
                throw MIDIFileError(path: path, "cannot be read (\(message))")
            }
            throw MIDIFileError(path: path, error.predicate)
        }
        guard bytes.count <= Self.sizeLimit else {
            throw MIDIFileError(path: path, "is over 64 MiB; fxhost plays MIDI files up to 64 MiB")
        }
        try self.init(bytes: bytes, path: path)
    }

    /// Reads `bytes`; `path` names the file in errors.
    package init(bytes: [UInt8], path: String) throws(MIDIFileError) {
        var reader = ByteReader(bytes: bytes, path: path)
        guard bytes.count >= 14, Array(bytes[0..<4]) == Array("MThd".utf8) else {
            throw MIDIFileError(path: path, "is not a Standard MIDI File (it does not begin with `MThd`)")
        }
        reader.position = 4
        let headerLength = try reader.uint32()
        guard headerLength >= 6 else { throw reader.error("the header is \(headerLength) bytes long; it needs 6") }
        let format = try reader.uint16(), trackCount = try reader.uint16(), division = try reader.uint16()
        guard format <= 1 else {
            throw MIDIFileError(path: path, byteOffset: 8, "is a format \(format) MIDI file; fxhost plays formats 0 and 1")
        }
        guard division & 0x8000 == 0, division > 0 else {
            throw MIDIFileError(path: path, byteOffset: 12,
                                "counts time in SMPTE frames; fxhost plays files that count ticks per quarter note")
        }
        reader.position = 8 + Int(headerLength)

        var tracks: [[TickEvent]] = []
        while tracks.count < trackCount {
            guard reader.remaining >= 8 else {
                throw reader.error("the header announces \(trackCount) tracks, but the file ends after \(tracks.count)")
            }
            let chunkStart = reader.position
            let type = try reader.bytes(4)
            let length = Int(try reader.uint32())
            guard reader.remaining >= length else {
                throw MIDIFileError(path: path, byteOffset: chunkStart, "a chunk claims \(length) bytes, but the file ends first")
            }
            // Chunks of other types are to be skipped, says the specification.
            guard type == Array("MTrk".utf8) else {
                reader.position += length
                continue
            }
            tracks.append(try Self.readTrack(&reader, end: reader.position + length, index: tracks.count))
            reader.position = chunkStart + 8 + length
        }

        let tempo = TempoMap(tracks: tracks, ticksPerQuarterNote: Int(division))
        var events: [(tick: Int, order: Int, event: Event)] = []
        var order = 0
        var endTick = 0
        for (index, track) in tracks.enumerated() {
            for item in track {
                endTick = max(endTick, item.tick)
                guard let message = item.message else { continue }
                events.append((item.tick, order, Event(seconds: tempo.seconds(atTick: item.tick), bytes: message, track: index)))
                order += 1
            }
        }
        events.sort { ($0.tick, $0.event.track, $0.order) < ($1.tick, $1.event.track, $1.order) }
        // Slow tempos and long deltas can place an event millions of years in:
        // its frame would overflow, so a file lasts at most what a render may.
        let length = tempo.seconds(atTick: endTick), longest = RenderOptions.longestRangeSeconds
        guard length <= longest else {
            throw MIDIFileError(path: path, "lasts \(NumberText.format(length)) s; fxhost plays MIDI files up to "
                                + "\(NumberText.format(longest)) s (24 hours) long")
        }
        self.format = Int(format)
        ticksPerQuarterNote = Int(division)
        self.events = events.map(\.event)
        seconds = length
    }

    /// What a track holds, by tick: channel messages, and tempo changes
    /// (microseconds per quarter note) for the tempo map.
    private struct TickEvent {
        var tick: Int
        var message: [UInt8]?
        var tempo: Int?
    }

    private static func readTrack(_ reader: inout ByteReader, end: Int, index: Int) throws(MIDIFileError) -> [TickEvent] {
        var events: [TickEvent] = []
        var tick = 0
        var runningStatus: UInt8?
        while reader.position < end {
            tick += try reader.variableLength(before: end)
            let eventStart = reader.position
            var status = try reader.byte(before: end)
            switch status {
            case 0xFF:
                let type = try reader.byte(before: end)
                let length = try reader.variableLength(before: end)
                let data = try reader.bytes(length, before: end)
                if type == 0x51 {
                    guard length == 3 else { throw reader.error("a tempo event holds \(length) bytes, not 3", at: eventStart) }
                    let microseconds = Int(data[0]) << 16 | Int(data[1]) << 8 | Int(data[2])
                    guard microseconds > 0 else { throw reader.error("a tempo event says 0 microseconds per beat", at: eventStart) }
                    events.append(TickEvent(tick: tick, tempo: microseconds))
                } else if type == 0x2F {
                    events.append(TickEvent(tick: tick))
                    return events
                }
                runningStatus = nil
            case 0xF0, 0xF7:
                _ = try reader.bytes(try reader.variableLength(before: end), before: end)
                runningStatus = nil
            default:
                if status < 0x80 {
                    // Running status: the byte read is the first data byte.
                    guard let running = runningStatus else {
                        throw reader.error("track \(index + 1) has a data byte where an event should begin", at: eventStart)
                    }
                    status = running
                    reader.position -= 1
                } else if status >= 0xF0 {
                    throw reader.error("track \(index + 1) has a system message (0x\(String(status, radix: 16))) "
                                       + "that a MIDI file cannot hold", at: eventStart)
                }
                runningStatus = status
                // Program change and channel pressure carry one data byte, the others two.
                let dataCount = (status & 0xF0 == 0xC0 || status & 0xF0 == 0xD0) ? 1 : 2
                var data: [UInt8] = []
                for _ in 0..<dataCount { data.append(try reader.byte(before: end)) }
                guard data.allSatisfy({ $0 < 0x80 }) else {
                    throw reader.error("track \(index + 1) has a status byte inside an event's data", at: eventStart)
                }
                events.append(TickEvent(tick: tick, message: [status] + data))
            }
        }
        throw reader.error("track \(index + 1) ends without an End of Track event", at: end)
    }

    /// Ticks to seconds: tempo changes (from any track, as players apply
    /// them) split the timeline into stretches of constant tempo.
    private struct TempoMap {
        /// From tick, the seconds there and microseconds per quarter note on.
        var stretches: [(tick: Int, seconds: Double, microseconds: Int)] = [(0, 0, 500_000)]
        let ticksPerQuarterNote: Int

        init(tracks: [[TickEvent]], ticksPerQuarterNote: Int) {
            self.ticksPerQuarterNote = ticksPerQuarterNote
            let changes = tracks.flatMap { $0.compactMap { event in event.tempo.map { (event.tick, $0) } } }
                .enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
            for (tick, microseconds) in changes {
                let at = seconds(atTick: tick)
                if stretches[stretches.count - 1].tick == tick { stretches.removeLast() }
                stretches.append((tick, at, microseconds))
            }
        }

        func seconds(atTick tick: Int) -> Double {
            let stretch = stretches.last { $0.tick <= tick }!
            return stretch.seconds
                + Double(tick - stretch.tick) * Double(stretch.microseconds) / Double(ticksPerQuarterNote) / 1_000_000
        }
    }
}

/// Big-endian reading with the file's offsets in errors.
private struct ByteReader {
    let bytes: [UInt8]
    let path: String
    var position = 0

    var remaining: Int { bytes.count - position }

    func error(_ reason: String, at offset: Int? = nil) -> MIDIFileError {
        MIDIFileError(path: path, byteOffset: offset ?? position, reason)
    }

    mutating func byte(before end: Int? = nil) throws(MIDIFileError) -> UInt8 {
        guard position < (end ?? bytes.count) else { throw error("the track ends inside an event") }
        defer { position += 1 }
        return bytes[position]
    }

    mutating func bytes(_ count: Int, before end: Int? = nil) throws(MIDIFileError) -> [UInt8] {
        guard count >= 0, position + count <= (end ?? bytes.count) else {
            throw error("an event claims \(count) bytes, more than its track holds")
        }
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    mutating func uint16() throws(MIDIFileError) -> Int {
        let pair = try bytes(2)
        return Int(pair[0]) << 8 | Int(pair[1])
    }

    mutating func uint32() throws(MIDIFileError) -> UInt32 {
        let quad = try bytes(4)
        return quad.reduce(0) { $0 << 8 | UInt32($1) }
    }

    /// A variable-length quantity: 7 bits a byte, high bit set on all but the last, at most 4 bytes.
    mutating func variableLength(before end: Int) throws(MIDIFileError) -> Int {
        var value = 0
        for _ in 0..<4 {
            let next = try byte(before: end)
            value = value << 7 | Int(next & 0x7F)
            if next & 0x80 == 0 { return value }
        }
        throw error("a variable-length number runs over 4 bytes")
    }
}
