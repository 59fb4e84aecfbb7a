import CLilv
import Foundation

/// Reads what a plugin said on its notify output, on the control thread:
/// a `patch:Set` (one property and its value) or a `patch:Put` (a body
/// object of property: value pairs) into property URIs and values.
struct PatchMessageDecoder {
    let urids: URIDMap

    /// The property values one message (an atom's bytes) carries; empty for
    /// anything else.
    func values(in message: [UInt8]) -> [(property: String, value: PropertyValue)] {
        message.withUnsafeBytes { bytes -> [(property: String, value: PropertyValue)] in
            guard bytes.count >= 16, let base = bytes.baseAddress else { return [] }
            let aligned = UnsafeMutableRawPointer.allocate(byteCount: bytes.count, alignment: 8)
            defer { aligned.deallocate() }
            aligned.copyMemory(from: base, byteCount: bytes.count)
            let object = UnsafeRawPointer(aligned)
            let otype = object.load(fromByteOffset: 12, as: UInt32.self)
            let pairs = properties(of: object, size: bytes.count)
            if otype == urids.map(LV2URI.patchSet) {
                guard let property = pairs.first(where: { $0.key == urids.map(LV2URI.patchProperty) }),
                      property.type == urids.map(LV2URI.atomURID), property.size >= 4,
                      let uri = urids.unmap(property.body.load(as: UInt32.self)).map({ String(cString: $0) }),
                      let value = pairs.first(where: { $0.key == urids.map(LV2URI.patchValue) }),
                      let decoded = decode(type: value.type, size: value.size, body: value.body)
                else { return [] }
                return [(uri, decoded)]
            }
            if otype == urids.map(LV2URI.patchPut) {
                guard let body = pairs.first(where: { $0.key == urids.map(LV2URI.patchBody) }),
                      body.type == urids.map(LV2URI.atomObject) || body.type == urids.map(LV2URI.atomBlank)
                else { return [] }
                let header = body.body - MemoryLayout<LV2_Atom>.size
                return properties(of: header, size: MemoryLayout<LV2_Atom>.size + Int(body.size)).compactMap { pair in
                    guard let uri = urids.unmap(pair.key).map({ String(cString: $0) }),
                          let value = decode(type: pair.type, size: pair.size, body: pair.body) else { return nil }
                    return (uri, value)
                }
            }
            return []
        }
    }

    private struct Pair {
        var key: UInt32
        var type: UInt32
        var size: UInt32
        var body: UnsafeRawPointer
    }

    /// An object's properties: after its 8-byte atom header and 8-byte
    /// body header (id, otype), each is a key, a context, then an atom.
    private func properties(of object: UnsafeRawPointer, size: Int) -> [Pair] {
        let total = min(size, 8 + Int(object.load(as: UInt32.self)))
        var offset = 16
        var pairs: [Pair] = []
        while offset + 16 <= total {
            let key = object.load(fromByteOffset: offset, as: UInt32.self)
            let valueSize = object.load(fromByteOffset: offset + 8, as: UInt32.self)
            let valueType = object.load(fromByteOffset: offset + 12, as: UInt32.self)
            guard offset + 16 + Int(valueSize) <= total else { break }
            pairs.append(Pair(key: key, type: valueType, size: valueSize, body: object + offset + 16))
            offset += (16 + Int(valueSize) + 7) & ~7
        }
        return pairs
    }

    private func decode(type: UInt32, size: UInt32, body: UnsafeRawPointer) -> PropertyValue? {
        func text() -> String {
            let bytes = UnsafeRawBufferPointer(start: body, count: Int(size))
            let end = bytes.firstIndex(of: 0) ?? bytes.count
            return String(decoding: bytes[..<end], as: UTF8.self)
        }
        switch type {
        case urids.map(LV2URI.atomPath): return .path(text())
        case urids.map(LV2URI.atomString): return .string(text())
        case urids.map(LV2URI.atomURI): return .uri(text())
        case urids.map(LV2URI.atomFloat) where size >= 4: return .float(body.load(as: Float.self))
        case urids.map(LV2URI.atomDouble) where size >= 8: return .double(body.load(as: Double.self))
        case urids.map(LV2URI.atomInt) where size >= 4: return .int(body.load(as: Int32.self))
        case urids.map(LV2URI.atomLong) where size >= 8: return .long(body.load(as: Int64.self))
        case urids.map(LV2URI.atomBool) where size >= 4: return .bool(body.load(as: Int32.self) != 0)
        case urids.map(LV2URI.atomURID) where size >= 4:
            return urids.unmap(body.load(as: UInt32.self)).map { .urid(String(cString: $0)) }
        default: return nil
        }
    }
}
