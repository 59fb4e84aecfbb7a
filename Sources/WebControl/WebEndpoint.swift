import Foundation
import LiveControl

/// Where `--web` listens: `PORT` (on 127.0.0.1) or `HOST:PORT` with a dotted
/// IPv4 address (`0.0.0.0` for every interface), an IPv6 address in brackets
/// (`[::1]:8080`, `[::]` for every interface) or `localhost`. Port 0 asks
/// the system for a free one; the URL printed names the one bound.
package struct WebEndpoint: Hashable, Sendable, Codable, CustomStringConvertible {
    /// A dotted IPv4 address, or an IPv6 address without its brackets.
    package var host: String
    package var port: Int

    package init(parsing text: String) throws(FrontEndError) {
        let usage = FrontEndError("--web takes PORT or HOST:PORT, such as --web 8080, --web 0.0.0.0:8080 or --web [::1]:8080, "
            + "not `\(text.prefix(100))`")
        let name: String, portText: Substring
        if text.hasPrefix("[") {
            // [IPv6]:PORT: the colons inside the brackets are the address's.
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { throw usage }
            name = String(text[text.index(after: text.startIndex)..<close])
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count <= 2 else { throw usage }
            name = parts.count == 2 ? String(parts[0]) : "127.0.0.1"
            portText = parts[parts.count - 1]
        }
        guard portText.count <= 5, let port = Int(portText), (0...65_535).contains(port) else { throw usage }
        self.port = port
        var address = in_addr(), address6 = in6_addr()
        if name == "localhost" {
            host = "127.0.0.1"
        } else if !text.hasPrefix("["), inet_pton(AF_INET, name, &address) == 1 {
            host = name
        } else if text.hasPrefix("["), inet_pton(AF_INET6, name, &address6) == 1 {
            host = name.lowercased()
        } else {
            throw FrontEndError("--web: `\(name.prefix(100))` is not an IP address (such as 127.0.0.1, 0.0.0.0 or [::1]) or `localhost`")
        }
    }

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// 127.0.0.0/8 or ::1: only this machine's processes can connect.
    package var isLoopback: Bool { host.hasPrefix("127.") || host == "::1" }

    /// 0.0.0.0 or ::, every interface, so the Host header may name any of this machine's addresses.
    package var isWildcard: Bool { host == "0.0.0.0" || host == "::" }

    /// The host as a URL and a Host header write it: an IPv6 address in brackets.
    package var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    package var description: String { "\(urlHost):\(port)" }
}
