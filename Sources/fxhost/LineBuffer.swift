/// Splits bytes from a pipe into lines, each at most `limit` bytes: an
/// overlong line is cut there and flagged, so what another process writes
/// cannot grow the reader's memory without bound.
struct LineBuffer {
    struct Line {
        var text: String
        /// It was longer than the limit and this is its start.
        var wasCut: Bool
    }

    let limit: Int
    private var pending: [UInt8] = []
    private var cutting = false

    init(limit: Int) { self.limit = limit }

    /// The whole lines `bytes` completes; the rest waits for more.
    mutating func append(_ bytes: [UInt8]) -> [Line] {
        var lines: [Line] = []
        for byte in bytes {
            if byte == 0x0A {
                if !cutting { lines.append(Line(text: String(decoding: pending, as: UTF8.self), wasCut: false)) }
                pending.removeAll(keepingCapacity: true)
                cutting = false
            } else if !cutting {
                pending.append(byte)
                if pending.count > limit {
                    lines.append(Line(text: String(decoding: pending[..<limit], as: UTF8.self), wasCut: true))
                    pending.removeAll(keepingCapacity: true)
                    cutting = true
                }
            }
        }
        return lines
    }

    /// At end of file: the unfinished last line, if any.
    mutating func finish() -> Line? {
        defer { pending.removeAll(); cutting = false }
        return pending.isEmpty ? nil : Line(text: String(decoding: pending, as: UTF8.self), wasCut: false)
    }
}
