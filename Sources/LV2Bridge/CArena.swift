import Foundation

/// C memory handed to a plugin (feature structs, URI strings, buffers) that
/// must stay at a fixed address for the plugin's lifetime. Everything is
/// freed together when the arena goes away, after the plugin is freed.
final class CArena {
    private var blocks: [UnsafeMutableRawPointer] = []

    deinit {
        for block in blocks { free(block) }
    }

    /// Zeroed memory for `count` values of a trivial type.
    func allocate<T>(_ type: T.Type = T.self, count: Int) -> UnsafeMutablePointer<T> {
        let bytes = max(count, 1) * MemoryLayout<T>.stride
        let raw = calloc(1, bytes)!
        blocks.append(raw)
        return raw.bindMemory(to: T.self, capacity: max(count, 1))
    }

    /// A copy of one value.
    func store<T>(_ value: T) -> UnsafeMutablePointer<T> {
        let pointer = allocate(T.self, count: 1)
        pointer.pointee = value
        return pointer
    }

    /// A copy of `values`, contiguous.
    func store<T>(array values: [T]) -> UnsafeMutablePointer<T> {
        let pointer = allocate(T.self, count: values.count)
        for (index, value) in values.enumerated() { pointer[index] = value }
        return pointer
    }

    /// A NUL-terminated copy of `text`.
    func cString(_ text: String) -> UnsafePointer<CChar> {
        let copy = strdup(text)!
        blocks.append(UnsafeMutableRawPointer(copy))
        return UnsafePointer(copy)
    }
}
