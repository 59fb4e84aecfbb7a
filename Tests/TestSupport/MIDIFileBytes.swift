/// A format 0 Standard MIDI File laid out by hand.
public enum MIDIFileBytes {
    public static func format0(division: UInt16, events: [(delta: Int, bytes: [UInt8])]) -> [UInt8] {
        func variableLength(_ value: Int) -> [UInt8] {
            var bytes = [UInt8(value & 0x7F)], rest = value >> 7
            while rest > 0 {
                bytes.insert(UInt8(rest & 0x7F) | 0x80, at: 0)
                rest >>= 7
            }
            return bytes
        }
        func be32(_ value: Int) -> [UInt8] { [24, 16, 8, 0].map { UInt8((value >> $0) & 0xFF) } }
        var track: [UInt8] = []
        for event in events { track += variableLength(event.delta) + event.bytes }
        let header: [UInt8] = Array("MThd".utf8) + be32(6) + [0, 0, 0, 1, UInt8(division >> 8), UInt8(division & 0xFF)]
        return header + Array("MTrk".utf8) + be32(track.count) + track
    }
}
