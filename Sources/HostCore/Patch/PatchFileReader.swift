import Glibc

/// Reads a patch file as text, refusing what no patch could be: missing or
/// unreadable files, files over the size limit, binary junk, invalid UTF-8.
/// The size is checked before reading, so a huge file is never loaded.
package enum PatchFileReader {
    /// Patches are small, hand-written files; anything bigger is a mistake or an attack.
    static let sizeLimit = 1 << 20

    package static func read(path: String) throws(GraphError) -> String {
        let descriptor: Int32
        do {
            descriptor = try RegularFile.openForReading(path)
        } catch {
            throw refusal(error)
        }
        defer { close(descriptor) }

        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw cannotRead(path, errno) }
        try checkSize(Int(info.st_size), path: path)

        // Read at most one byte past the limit: a file that grows while we read is still refused.
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let got = bytes.withUnsafeMutableBytes { buffer in
                Glibc.read(descriptor, buffer.baseAddress! + count, buffer.count - count)
            }
            if got < 0 {
                if errno == EINTR { continue }
                throw cannotRead(path, errno)
            }
            if got == 0 { break }
            count += got
        }
        bytes.removeSubrange(count...)
        try checkSize(count, path: path)
        return try decode(bytes, path: path)
    }

    /// Checks text handed over directly (not read from a file) with the same rules.
    static func check(text: String, path: String) throws(GraphError) {
        try checkSize(text.utf8.count, path: path)
        if let offset = text.utf8.firstIndex(of: 0) {
            let position = text.utf8.distance(from: text.utf8.startIndex, to: offset)
            throw nulByte(at: location(ofByte: position, in: Array(text.utf8), path: path))
        }
    }

    static func checkSize(_ size: Int, path: String) throws(GraphError) {
        guard size > sizeLimit else { return }
        let mebibytes = Double(size) / Double(sizeLimit)
        let shown = (mebibytes * 10).rounded(.down) / 10
        throw GraphError("patch file is \(shown) MiB; patches are limited to 1 MiB",
                         at: SourceLocation(file: path, line: 1, column: 1))
    }

    static func decode(_ bytes: [UInt8], path: String) throws(GraphError) -> String {
        if let nul = bytes.firstIndex(of: 0) {
            throw nulByte(at: location(ofByte: nul, in: bytes, path: path))
        }
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // Invalid: walk again to find where, for the message.
        var iterator = bytes.makeIterator()
        var decoder = UTF8()
        var offset = 0
        while case .scalarValue(let scalar) = decoder.decode(&iterator) { offset += UTF8.width(scalar) }
        throw GraphError("patch file is not UTF-8 text (invalid byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))",
                         at: location(ofByte: offset, in: bytes, path: path))
    }

    private static func nulByte(at location: SourceLocation) -> GraphError {
        GraphError("patch file contains a NUL byte; it looks like a binary file, not a YAML patch", at: location)
    }

    /// 1-based line and column (in Unicode scalars, as YAML counts them) of a byte offset.
    static func location(ofByte offset: Int, in bytes: [UInt8], path: String) -> SourceLocation {
        var line = 1, column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1  // count only the first byte of each UTF-8 sequence
            }
        }
        return SourceLocation(file: path, line: line, column: column)
    }

    /// A FIFO, a device or a directory is refused before it is opened
    /// (see `RegularFile`); a missing or unreadable file in the system's words.
    private static func refusal(_ refusal: RegularFileRefusal) -> GraphError {
        if let message = refusal.systemMessage {
            return GraphError("cannot read patch file `\(refusal.path)`: \(message)")
        }
        return GraphError("patch file \(refusal.description)")
    }

    private static func cannotRead(_ path: String, _ code: Int32) -> GraphError {
        GraphError("cannot read patch file `\(path)`: \(String(cString: strerror(code)))")
    }
}
