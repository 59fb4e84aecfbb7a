import HostCore
import JackIO
import Foundation

/// An IPv4 address and UDP port: where `--osc` listens, and who sent a
/// message (replies go back there). Kept in host order; `socketAddress`
/// converts.
/// Codable only because `RunCommand` (a ParsableCommand) keeps one.
package struct OSCEndpoint: Hashable, Sendable, Codable, CustomStringConvertible {
    var host: UInt32
    var port: UInt16

    /// `PORT` (on 127.0.0.1, so nothing outside this machine can steer the
    /// host unless asked) or `HOST:PORT` (a dotted IPv4 address, `0.0.0.0`
    /// for every interface, or a name such as `localhost`).
    package init(parsing text: String) throws(FrontEndError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let port = UInt16(parts[parts.count - 1]), port > 0 else {
            throw FrontEndError("--osc takes PORT or HOST:PORT, such as --osc 9000 or --osc 0.0.0.0:9000, not `\(text)`")
        }
        self.port = port
        let name = parts.count == 2 ? parts[0] : "127.0.0.1"
        var address = in_addr()
        if inet_pton(AF_INET, name, &address) == 1 {
            host = UInt32(bigEndian: address.s_addr)
            return
        }
        var hints = addrinfo()
        hints.ai_family = AF_INET
        hints.ai_socktype = Int32(SOCK_DGRAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(name, nil, &hints, &found) == 0, let first = found, let socketAddress = first.pointee.ai_addr else {
            throw FrontEndError("--osc: `\(name)` is not an IPv4 address or a host name this machine knows")
        }
        defer { freeaddrinfo(found) }
        host = socketAddress.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { UInt32(bigEndian: $0.pointee.sin_addr.s_addr) }
    }

    init(_ address: sockaddr_in) {
        host = UInt32(bigEndian: address.sin_addr.s_addr)
        port = UInt16(bigEndian: address.sin_port)
    }

    var socketAddress: sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = host.bigEndian
        return address
    }

    package var description: String {
        "\(host >> 24).\(host >> 16 & 0xFF).\(host >> 8 & 0xFF).\(host & 0xFF):\(port)"
    }
}
