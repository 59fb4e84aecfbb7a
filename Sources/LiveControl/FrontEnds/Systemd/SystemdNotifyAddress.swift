import Glibc

/// Where systemd listens for a service's notifications, as `$NOTIFY_SOCKET`
/// names it: a socket file's absolute path, or `@NAME` in Linux's abstract
/// namespace (on the wire, a NUL and then the name). Anything else (a
/// relative path, a `vsock:` address, a name longer than `sun_path`
/// holds) is refused with a sentence, never trapped on.
package struct SystemdNotifyAddress: Equatable, Sendable {
    /// `sun_path`'s bytes as sent: the path and its NUL, or a NUL and the name.
    package let pathBytes: [UInt8]

    /// Bytes `sun_path` holds: 108 on Linux (unix(7)).
    package static let capacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    package var isAbstract: Bool { pathBytes.first == 0 }

    package init(parsing text: String) throws(FrontEndError) {
        let bytes = Array(text.utf8)
        let sentBytes: [UInt8]
        switch bytes.first {
        case UInt8(ascii: "@"):
            let name = bytes.dropFirst()
            guard !name.isEmpty else { throw FrontEndError("$NOTIFY_SOCKET `@` names no abstract socket, so systemd is not told anything") }
            sentBytes = [0] + name
        case UInt8(ascii: "/"):
            // A NUL inside would cut the path short of what systemd bound.
            guard !bytes.contains(0) else { throw FrontEndError("$NOTIFY_SOCKET holds a NUL byte, so systemd is not told anything") }
            sentBytes = bytes + [0]
        default:
            throw FrontEndError("$NOTIFY_SOCKET `\(text)` is neither an absolute path nor an @name, so systemd is not told anything")
        }
        guard sentBytes.count <= Self.capacity else {
            throw FrontEndError("$NOTIFY_SOCKET is \(bytes.count) bytes long, more than a socket address holds (\(Self.capacity - 1)), so systemd is not told anything")
        }
        pathBytes = sentBytes
    }

    /// Calls `body` with the address and its length: up to the path's NUL,
    /// or exactly the abstract name (whose length is part of the name), as
    /// systemd's own `sd_notify` sends it.
    package func withSocketAddress<Result>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> Result) -> Result {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            path.copyBytes(from: pathBytes)
        }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + pathBytes.count)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
