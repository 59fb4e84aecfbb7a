import Foundation
import Glibc
import HostCore

/// One end of the local socket between a supervisor and its engine
/// process: `EngineMessage`s as frames (a 4-byte big-endian length, then
/// the message as JSON). Reading never waits (`receive` takes what has
/// arrived); writing waits until the peer has room. Both ends are the same
/// executable, but a frame is still bounded: a peer that breaks the form
/// breaks the link.
package final class EngineLink {
    package let descriptor: Int32
    private var buffer: [UInt8] = []
    private var closed = false
    /// The largest frame either end accepts (a large session's state).
    package static let maximumFrameBytes = 64 << 20

    /// Takes ownership of `descriptor` (closed by `close`).
    /// Close-on-exec as well: the engine's end came through dup2, and
    /// nothing a plugin starts may hold the link open.
    package init(descriptor: Int32) {
        self.descriptor = descriptor
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }

    /// Both ends are this executable: a value JSON has no form for (a
    /// bounce's speed when no time passed) crosses as text.
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }()
    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }()
    /// How long a write may wait for a peer that reads nothing.
    private static let writeSeconds = 10.0

    deinit { close() }

    package func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(descriptor)
    }

    /// A connected pair, both ends close-on-exec (a child is handed its end
    /// explicitly).
    package static func pair() throws(EngineLinkError) -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .broken("cannot make the engine's socket (\(String(cString: strerror(errno))))")
        }
        return (ends[0], ends[1])
    }

    package func send(_ message: EngineMessage) throws(EngineLinkError) {
        let body: Data
        do {
            body = try Self.encoder.encode(message)
        } catch {
            throw .broken("a message could not be written (\(error))")
        }
        guard body.count <= Self.maximumFrameBytes else { throw .broken("a message of \(body.count) bytes is too long") }
        var frame = [UInt8](repeating: 0, count: 4)
        let length = UInt32(body.count)
        for index in 0..<4 { frame[index] = UInt8(truncatingIfNeeded: length >> (24 - 8 * UInt32(index))) }
        frame.append(contentsOf: body)
        try write(frame)
    }

    private func write(_ bytes: [UInt8]) throws(EngineLinkError) {
        var offset = 0
        let deadline = LiveHost.now() + Self.writeSeconds
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { raw in
                Glibc.send(descriptor, raw.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if written > 0 {
                offset += written
            } else if written < 0 && (errno == EAGAIN || errno == EINTR) {
                guard LiveHost.now() < deadline else { throw .broken("the peer read nothing for \(Int(Self.writeSeconds)) s") }
                var entry = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                _ = poll(&entry, 1, 1000)
            } else {
                throw .closed
            }
        }
    }

    /// The messages that have arrived, in order, without waiting. Throws
    /// `.closed` once the peer has gone and every message before it was taken.
    package func receive() throws(EngineLinkError) -> [EngineMessage] {
        var chunk = [UInt8](repeating: 0, count: 65536)
        var ended = false
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
                continue
            }
            if count == 0 || (errno != EAGAIN && errno != EINTR) { ended = true }
            if count < 0 && errno == EINTR { continue }
            break
        }
        var messages: [EngineMessage] = []
        var start = 0
        while buffer.count - start >= 4 {
            let length = (0..<4).reduce(0) { $0 << 8 | Int(buffer[start + $1]) }
            guard length <= Self.maximumFrameBytes else { throw .broken("a frame of \(length) bytes is too long") }
            guard buffer.count - start - 4 >= length else { break }
            let body = Data(buffer[(start + 4)..<(start + 4 + length)])
            do {
                messages.append(try Self.decoder.decode(EngineMessage.self, from: body))
            } catch {
                throw .broken("a message could not be read (\(error))")
            }
            start += 4 + length
        }
        buffer.removeFirst(start)
        if ended && messages.isEmpty { throw .closed }
        return messages
    }

    /// Waits until something can be read (or the peer is gone), at most `seconds`.
    @discardableResult
    package func waitReadable(seconds: Double) -> Bool {
        var entry = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        let milliseconds = Int32(min(max(seconds * 1000, 0), 3_600_000).rounded(.up))
        return poll(&entry, 1, milliseconds) > 0
    }
}

/// Why a link to an engine or its supervisor ended.
package enum EngineLinkError: Error, CustomStringConvertible {
    /// The peer closed its end (it ended, or died).
    case closed
    /// The peer broke the form.
    case broken(String)

    package var description: String {
        switch self {
        case .closed: "the engine's link closed"
        case .broken(let reason): "the engine's link broke: \(reason)"
        }
    }
}
