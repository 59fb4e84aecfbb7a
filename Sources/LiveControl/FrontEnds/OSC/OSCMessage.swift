/// One OSC 1.0 message: an address and typed arguments, read from and
/// written to the bytes of a UDP packet. Only the types fxhost's address
/// space uses (int32, float32, string; `T`/`F` read as ints) are read; a
/// packet with others is refused as a whole, so nothing half-understood runs.
package struct OSCMessage: Equatable, Sendable {
    package enum Argument: Equatable, Sendable {
        case int(Int32)
        case float(Float)
        case string(String)

        /// The type tag character.
        var tag: Character {
            switch self {
            case .int: return "i"
            case .float: return "f"
            case .string: return "s"
            }
        }
    }

    package var address: String
    package var arguments: [Argument]

    package init(_ address: String, _ arguments: [Argument] = []) {
        self.address = address
        self.arguments = arguments
    }

    /// The arguments' type tags, such as "ssf".
    package var typeTags: String { String(arguments.map(\.tag)) }

    /// The messages of a packet: one message, or a bundle's (nested bundles
    /// included) in order. Time tags are not honoured: a bundle runs at once.
    package static func messages(in packet: [UInt8]) throws(OSCDecodingError) -> [OSCMessage] {
        var reader = OSCReader(bytes: packet[...])
        if packet.first == UInt8(ascii: "#") {
            guard try reader.string() == "#bundle" else { throw .malformed("a packet starting with # that is not a #bundle") }
            _ = try reader.bytes(8)  // the time tag
            var messages: [OSCMessage] = []
            while !reader.atEnd {
                let size = Int(try reader.int32())
                guard size >= 0, size % 4 == 0 else { throw .malformed("a bundle element of \(size) bytes") }
                messages += try Self.messages(in: Array(try reader.bytes(size)))
            }
            return messages
        }
        return [try OSCMessage(decoding: &reader)]
    }

    private init(decoding reader: inout OSCReader) throws(OSCDecodingError) {
        address = try reader.string()
        guard address.hasPrefix("/") else { throw .malformed("an address that does not start with /") }
        arguments = []
        // A message without a type tag string (OSC 1.0 allows it from old senders) has no arguments we can read.
        if reader.atEnd { return }
        let tags = try reader.string()
        guard tags.first == "," else { throw .malformed("a type tag string that does not start with a comma") }
        for tag in tags.dropFirst() {
            switch tag {
            case "i": arguments.append(.int(try reader.int32()))
            case "f": arguments.append(.float(Float(bitPattern: UInt32(bitPattern: try reader.int32()))))
            case "s": arguments.append(.string(try reader.string()))
            case "T": arguments.append(.int(1))
            case "F": arguments.append(.int(0))
            default: throw .unsupportedType(tag)
            }
        }
        guard reader.atEnd else { throw .malformed("bytes after the last argument") }
    }

    /// The packet's bytes.
    package func encoded() -> [UInt8] {
        var bytes = Self.padded(address)
        bytes += Self.padded("," + typeTags)
        for argument in arguments {
            switch argument {
            case .int(let value): bytes += Self.bigEndian(UInt32(bitPattern: value))
            case .float(let value): bytes += Self.bigEndian(value.bitPattern)
            case .string(let value): bytes += Self.padded(value)
            }
        }
        return bytes
    }

    /// UTF-8, a terminating zero, then zeros to a multiple of four bytes.
    private static func padded(_ text: String) -> [UInt8] {
        var bytes = Array(text.utf8)
        bytes.append(0)
        while bytes.count % 4 != 0 { bytes.append(0) }
        return bytes
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }
}

/// Why a packet could not be read; its sentence goes back to the sender.
package enum OSCDecodingError: Error, Equatable, CustomStringConvertible {
    case malformed(String)
    case unsupportedType(Character)

    package var description: String {
        switch self {
        case .malformed(let what): return "malformed OSC packet: \(what)"
        case .unsupportedType(let tag): return "unsupported OSC type tag `\(tag)` (fxhost reads i, f, s, T and F)"
        }
    }
}

/// Reads OSC's four-byte-aligned fields off a packet.
private struct OSCReader {
    var bytes: ArraySlice<UInt8>

    var atEnd: Bool { bytes.isEmpty }

    mutating func bytes(_ count: Int) throws(OSCDecodingError) -> ArraySlice<UInt8> {
        guard count <= bytes.count else { throw .malformed("the packet ends inside a field") }
        defer { bytes = bytes.dropFirst(count) }
        return bytes.prefix(count)
    }

    mutating func int32() throws(OSCDecodingError) -> Int32 {
        let field = try bytes(4)
        return Int32(bitPattern: field.reduce(UInt32(0)) { $0 << 8 | UInt32($1) })
    }

    /// A zero-terminated string padded to four bytes.
    mutating func string() throws(OSCDecodingError) -> String {
        guard let end = bytes.firstIndex(of: 0) else { throw .malformed("a string without its terminating zero") }
        let length = end - bytes.startIndex
        let field = try bytes((length / 4 + 1) * 4)
        guard let text = String(validating: field.prefix(length), as: UTF8.self) else {
            throw .malformed("a string that is not UTF-8")
        }
        return text
    }
}
