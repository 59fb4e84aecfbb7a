import Foundation

/// The first name an object in JSON text gives twice (`{"v": 1, "v": 2}`),
/// which a decoder would settle silently by keeping one; JSON leaves it to
/// the reader, and a command that says two things is refused instead.
/// For text already read as JSON: it only follows strings and nesting.
enum JSONDuplicateKeys {
    static func first(in text: String) -> String? {
        var objects: [Set<String>?] = []  // per open bracket: the names seen, nil in an array
        let bytes = Array(text.utf8)
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "{"): objects.append([])
            case UInt8(ascii: "["): objects.append(nil)
            case UInt8(ascii: "}"), UInt8(ascii: "]"): _ = objects.popLast()
            case UInt8(ascii: "\""):
                let start = index
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                }
                var next = index + 1
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                // A string followed by `:` inside an object is a name.
                guard next < bytes.count, bytes[next] == UInt8(ascii: ":"),
                      let last = objects.indices.last, objects[last] != nil else { break }
                let token = Data(bytes[start...min(index, bytes.count - 1)])
                let name = (try? JSONDecoder().decode(String.self, from: token)) ?? String(decoding: token, as: UTF8.self)
                if objects[last]!.insert(name).inserted == false { return name }
            default: break
            }
            index += 1
        }
        return nil
    }
}
