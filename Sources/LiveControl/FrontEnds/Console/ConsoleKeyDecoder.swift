/// Turns the bytes a terminal in raw mode sends into keys: UTF-8 text,
/// control characters, and the escape sequences of xterm, VT100 and the
/// Linux console (tmux sends the same). A sequence cut between two reads
/// is kept until the rest comes; sequences it does not know are swallowed
/// whole, so they never type stray characters.
struct ConsoleKeyDecoder {
    private var pending: [UInt8] = []

    mutating func keys(from bytes: some Sequence<UInt8>) -> [ConsoleKey] {
        pending.append(contentsOf: bytes)
        var keys: [ConsoleKey] = []
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(at: index, in: pending) else { break }
            if let key { keys.append(key) }
            index += length
        }
        pending.removeFirst(index)
        return keys
    }

    /// The key at `start` and how many bytes it took (a nil key: bytes to
    /// skip), or nil when the bytes end before the key does.
    private static func key(at start: Int, in bytes: [UInt8]) -> (ConsoleKey?, Int)? {
        let byte = bytes[start]
        switch byte {
        case 0x0D, 0x0A: return (.enter, 1)
        case 0x09: return (.tab, 1)
        case 0x7F, 0x08: return (.backspace, 1)
        case 0x1B: return escape(at: start, in: bytes)
        case 0x01...0x1A: return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x00, 0x1C...0x1F: return (nil, 1)
        case 0x20..<0x80: return (.character(Character(Unicode.Scalar(byte))), 1)
        default: return utf8(at: start, in: bytes)
        }
    }

    private static func utf8(at start: Int, in bytes: [UInt8]) -> (ConsoleKey?, Int)? {
        let byte = bytes[start]
        let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        guard length > 1 else { return (nil, 1) }  // a stray continuation byte
        guard start + length <= bytes.count else { return nil }
        let sequence = bytes[start..<start + length]
        guard sequence.dropFirst().allSatisfy({ $0 & 0xC0 == 0x80 }),
              let text = String(validating: sequence, as: UTF8.self), let character = text.first else {
            return (nil, 1)
        }
        return (.character(character), length)
    }

    private static func escape(at start: Int, in bytes: [UInt8]) -> (ConsoleKey?, Int)? {
        guard start + 1 < bytes.count else { return nil }
        let next = bytes[start + 1]
        switch next {
        case UInt8(ascii: "["):
            return controlSequence(at: start, in: bytes)
        case UInt8(ascii: "O"):
            guard start + 2 < bytes.count else { return nil }
            let keys: [UInt8: ConsoleKey] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end]
            return (keys[bytes[start + 2]], 3)
        case 0x7F, 0x08:
            return (.altBackspace, 2)
        case 0x1B:
            return (nil, 1)  // Escape pressed twice: the first means nothing
        case 0x20..<0x7F:
            return (.alt(Character(Unicode.Scalar(next))), 2)
        default:
            return (nil, 1)
        }
    }

    /// ESC [ parameters intermediates final (ECMA-48's control sequence).
    private static func controlSequence(at start: Int, in bytes: [UInt8]) -> (ConsoleKey?, Int)? {
        var end = start + 2
        while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        guard end < bytes.count else { return nil }
        let length = end - start + 1
        guard (0x40...0x7E).contains(bytes[end]) else { return (nil, length - 1) }  // not a sequence after all
        let parameters = String(decoding: bytes[(start + 2)..<end], as: UTF8.self)
        let modified = parameters.hasSuffix(";5") || parameters.hasSuffix(";3")  // Ctrl or Alt
        let key: ConsoleKey?
        switch bytes[end] {
        case UInt8(ascii: "A"): key = .up
        case UInt8(ascii: "B"): key = .down
        case UInt8(ascii: "C"): key = modified ? .wordRight : .right
        case UInt8(ascii: "D"): key = modified ? .wordLeft : .left
        case UInt8(ascii: "H"): key = .home
        case UInt8(ascii: "F"): key = .end
        case UInt8(ascii: "~"):
            switch parameters {
            case "1", "7": key = .home
            case "4", "8": key = .end
            case "3": key = .delete
            default: key = nil
            }
        default: key = nil
        }
        return (key, length)
    }
}
