import Foundation

/// A bundle folder and a fingerprint of what is in it: the folder's and
/// every file's modification time and size (recursively), hashed. Editing,
/// adding or removing any file of the bundle changes it, so a cached
/// description read from the bundle stops matching.
package struct BundleStamp: Codable, Sendable, Hashable {
    package var path: String
    /// Hex digits of the hash; empty when the bundle cannot be read (gone).
    package var stamp: String

    /// The stamp of the bundle at `path` as it is now.
    package init(path: String) {
        self.path = path
        var hasher = Hasher64()
        stamp = Self.walk(path, relative: "", into: &hasher, depth: 0) ? String(hasher.value, radix: 16) : ""
    }

    package init(path: String, stamp: String) {
        self.path = path
        self.stamp = stamp
    }

    /// Folders below a bundle deeper than this are not looked into (a
    /// bundle's data files sit at its top or a level or two below).
    private static let maximumDepth = 4

    /// Hashes the folder's own time, then each entry in name order; false
    /// when the folder cannot be read.
    private static func walk(_ folder: String, relative: String, into hasher: inout Hasher64, depth: Int) -> Bool {
        var folderStatus = stat()
        guard stat(folder, &folderStatus) == 0, let directory = opendir(folder) else { return false }
        hasher.add(relative)
        hasher.add(folderStatus)
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(cString: $0.bindMemory(to: CChar.self).baseAddress!) }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names.sorted() {
            let path = folder + "/" + name
            var status = stat()
            guard stat(path, &status) == 0 else { continue }
            if status.st_mode & S_IFMT == S_IFDIR {
                if depth < maximumDepth { _ = walk(path, relative: relative + "/" + name, into: &hasher, depth: depth + 1) }
            } else {
                hasher.add(relative + "/" + name)
                hasher.add(status)
            }
        }
        return true
    }

    /// 64-bit FNV-1a: stable across runs, unlike Swift's seeded `Hasher`.
    static func hash(_ bytes: [UInt8]) -> UInt64 {
        var hasher = Hasher64()
        hasher.add(bytes)
        return hasher.value
    }

    struct Hasher64 {
        private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

        mutating func add(_ bytes: some Sequence<UInt8>) {
            for byte in bytes { value = (value ^ UInt64(byte)) &* 0x100_0000_01b3 }
            add(number: 0xff)
        }

        mutating func add(_ text: String) { add(Array(text.utf8)) }

        mutating func add(_ status: stat) {
            for number in [Int64(status.st_mtim.tv_sec), Int64(status.st_mtim.tv_nsec), Int64(status.st_size)] {
                add(number: UInt64(bitPattern: number))
            }
        }

        private mutating func add(number: UInt64) {
            for shift in stride(from: 0, to: 64, by: 8) { value = (value ^ ((number >> UInt64(shift)) & 0xff)) &* 0x100_0000_01b3 }
        }
    }
}
