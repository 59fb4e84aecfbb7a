import Foundation

/// Who may use the web front end, checked on every request and WebSocket
/// before anything else: the `Host` header must name the address bound or
/// `localhost` (a DNS-rebinding page names its own domain), an `Origin`
/// must be the page's own (a site the user visits must not post to
/// 127.0.0.1), and, with a token, the token must come with it (header or
/// `?token=`). Pure: the server hands it the headers.
package struct WebAccess: Sendable {
    package enum Verdict: Equatable, Sendable {
        case allowed
        /// HTTP status and the sentence the client is told.
        case refused(status: Int, sentence: String)
    }

    /// The address bound, with the port the system gave.
    package let endpoint: WebEndpoint
    /// Required when set (always, off loopback).
    package let token: String?

    package init(endpoint: WebEndpoint, token: String?) {
        self.endpoint = endpoint
        self.token = token
    }

    package func check(host: String?, origin: String?, authorization: String?, tokenHeader: String?,
                       queryToken: String?) -> Verdict {
        guard let host, let (name, port) = Self.split(authority: host), isAllowed(name: name, port: port) else {
            return .refused(status: 403, sentence: "the Host header must name this server (\(endpoint) or localhost:\(endpoint.port))")
        }
        if let origin {
            guard origin != "null", origin.hasPrefix("http://"),
                  let (originName, originPort) = Self.split(authority: String(origin.dropFirst("http://".count))),
                  originName == name, originPort == port else {
                return .refused(status: 403, sentence: "a request from another site (Origin \(origin.prefix(100))) is refused")
            }
        }
        if let token {
            let bearer = authorization.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
            let given = [bearer, tokenHeader, queryToken].compactMap { $0 }
            guard given.contains(where: { Self.equalInConstantTime($0, token) }) else {
                return .refused(status: 401, sentence: "this server needs its token (the `token` printed with its URL), "
                    + "as ?token=, an X-Fxhost-Token header or Authorization: Bearer")
            }
        }
        return .allowed
    }

    private func isAllowed(name: String, port: Int) -> Bool {
        guard port == endpoint.port else { return false }
        if name == "localhost" || name == endpoint.urlHost { return true }
        if endpoint.isLoopback { return name == "127.0.0.1" || name == "[::1]" }
        // Every interface: any of this machine's addresses, written as an IP
        // address (a rebinding page can only name a domain).
        return endpoint.isWildcard && (Self.isIPv4(name) || name.hasPrefix("["))
    }

    /// `name[:port]` (port 80 when absent), lowercased; nil when unreadable.
    static func split(authority: String) -> (String, Int)? {
        let text = authority.lowercased()
        guard !text.isEmpty, text.count <= 300, !text.contains("/"), !text.contains("@") else { return nil }
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let name = String(text[...close])
            let rest = text[text.index(after: close)...]
            if rest.isEmpty { return (name, 80) }
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (name, port)
        }
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, !parts[0].isEmpty else { return nil }
        if parts.count == 1 { return (String(parts[0]), 80) }
        guard let port = Int(parts[1]), (0...65_535).contains(port) else { return nil }
        return (String(parts[0]), port)
    }

    static func isIPv4(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { $0.count <= 3 && UInt8($0) != nil }
    }

    /// Compares without stopping at the first difference, so timing tells nothing of the token.
    static func equalInConstantTime(_ given: String, _ token: String) -> Bool {
        let a = Array(given.utf8), b = Array(token.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count { difference |= (index < a.count ? a[index] : 0) ^ b[index] }
        return difference == 0
    }

    /// A new token: 128 bits from the system's generator, as hex.
    package static func generatedToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }
}
