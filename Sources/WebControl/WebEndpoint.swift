import Foundation
import LiveControl

/// Where `--web` listens: `PORT` (on 127.0.0.1) or `HOST:PORT` with a dotted
/// IPv4 address (`0.0.0.0` for every interface) or `localhost`. Port 0 asks
/// the system for a free one; the URL printed names the one bound.
package struct WebEndpoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A dotted IPv4 address.
    package var host: String
    package var port: Int

    package init(parsing text: String) throws(FrontEndError) {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        guard parts.count <= 2, let port = Int(parts[parts.count - 1]), (0...65_535).contains(port) else {
            throw FrontEndError("--web takes PORT or HOST:PORT, such as --web 8080 or --web 0.0.0.0:8080, not `\(text)`")
        }
        self.port = port
        let name = parts.count == 2 ? parts[0] : "127.0.0.1"
        var address = in_addr()
        if name == "localhost" {
            host = "127.0.0.1"
        } else if inet_pton(AF_INET, name, &address) == 1 {
            host = name
        } else {
            throw FrontEndError("--web: `\(name)` is not an IPv4 address (such as 127.0.0.1 or 0.0.0.0) or `localhost`")
        }
    }

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// 127.0.0.0/8: only this machine's processes can connect.
    package var isLoopback: Bool { host.hasPrefix("127.") }

    /// 0.0.0.0: every interface, so the Host header may name any of this machine's addresses.
    package var isWildcard: Bool { host == "0.0.0.0" }

    package var description: String { "\(host):\(port)" }
}
