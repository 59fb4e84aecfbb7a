import LiveControl
import WebControl
import XCTest

/// `WebAccess` as issue 17 states its rules: the `Host` header must name the
/// address bound or `localhost` (DNS rebinding, 403), an `Origin` of another
/// site is refused (403), and with a token every request carries it
/// (`?token=`, `X-Fxhost-Token` or `Authorization: Bearer`; without it, 401).
/// Each row is a request and the verdict those rules give it.
final class WebAccessTests: XCTestCase {
    private let port = 8_321
    private let loopback = WebAccess(endpoint: WebEndpoint(host: "127.0.0.1", port: 8_321), token: nil)

    private struct Row {
        let headers: (host: String?, origin: String?, authorization: String?, tokenHeader: String?, queryToken: String?)
        /// nil: allowed; otherwise the HTTP status.
        let refusedWith: Int?
        let why: String
    }

    private func row(host: String?, origin: String? = nil, authorization: String? = nil, tokenHeader: String? = nil,
                     queryToken: String? = nil, _ refusedWith: Int?, _ why: String) -> Row {
        Row(headers: (host, origin, authorization, tokenHeader, queryToken), refusedWith: refusedWith, why: why)
    }

    private func check(_ access: WebAccess, _ rows: [Row], file: StaticString = #filePath, line: UInt = #line) {
        for row in rows {
            let verdict = access.check(host: row.headers.host, origin: row.headers.origin, authorization: row.headers.authorization,
                                       tokenHeader: row.headers.tokenHeader, queryToken: row.headers.queryToken)
            switch (verdict, row.refusedWith) {
            case (.allowed, nil):
                break
            case (.refused(let status, let sentence), let expected?):
                XCTAssertEqual(status, expected, "\(row.why): \(sentence)", file: file, line: line)
                XCTAssertFalse(sentence.isEmpty, row.why, file: file, line: line)
            default:
                XCTFail("\(row.why): \(verdict), expected \(row.refusedWith.map { "refused with \($0)" } ?? "allowed")", file: file, line: line)
            }
        }
    }

    func testTheHostHeaderMustNameTheAddressBoundOrLocalhost() {
        check(loopback, [
            row(host: "127.0.0.1:\(port)", nil, "the address bound"),
            row(host: "localhost:\(port)", nil, "localhost"),
            row(host: "LocalHost:\(port)", nil, "a host name in any case (names are case-insensitive)"),
            row(host: "evil.example:\(port)", 403, "a foreign name: a DNS-rebinding page"),
            row(host: "evil.example", 403, "a foreign name without a port"),
            row(host: nil, 403, "no Host header"),
            row(host: "", 403, "an empty Host header"),
            row(host: "127.0.0.1:\(port + 1)", 403, "another port"),
            row(host: "localhost", 403, "no port: 80, not the port bound"),
            row(host: "127.0.0.1:\(port):\(port)", 403, "two ports"),
            row(host: "user@127.0.0.1:\(port)", 403, "user information"),
            row(host: "127.0.0.1:99999999999999999999", 403, "a port no number holds"),
        ])
        let six = WebAccess(endpoint: WebEndpoint(host: "::1", port: port), token: nil)
        check(six, [
            row(host: "[::1]:\(port)", nil, "IPv6 loopback, bound there"),
            row(host: "localhost:\(port)", nil, "localhost, bound to ::1"),
            row(host: "[::1]:\(port + 1)", 403, "IPv6 loopback, another port"),
            row(host: "[::1", 403, "an unclosed bracket"),
            row(host: "evil.example:\(port)", 403, "a foreign name, bound to ::1"),
        ])
        let everywhere = WebAccess(endpoint: WebEndpoint(host: "0.0.0.0", port: port), token: nil)
        check(everywhere, [
            row(host: "192.168.1.20:\(port)", nil, "every interface: one of this machine's addresses"),
            row(host: "localhost:\(port)", nil, "every interface: localhost"),
            row(host: "evil.example:\(port)", 403, "every interface: a foreign name"),
            row(host: "192.168.1.20:\(port + 1)", 403, "every interface: another port"),
        ])
    }

    func testAnOriginOfAnotherSiteIsRefused() {
        let host = "127.0.0.1:\(port)"
        check(loopback, [
            row(host: host, origin: "http://127.0.0.1:\(port)", nil, "the page's own origin"),
            row(host: host, origin: nil, nil, "no Origin (a script, curl)"),
            row(host: host, origin: "https://127.0.0.1:\(port)", 403, "another scheme"),
            row(host: host, origin: "http://127.0.0.1:\(port + 1)", 403, "another port"),
            row(host: host, origin: "null", 403, "an opaque origin (a sandboxed frame, a file)"),
            row(host: host, origin: "http://evil.example", 403, "another site"),
            row(host: host, origin: "http://evil.example:\(port)", 403, "another site on the same port"),
            row(host: host, origin: "", 403, "an empty Origin"),
        ])
    }

    func testATokenIsRequiredOnEveryRequestWhenSet() {
        // --web-token on loopback: required there too.
        let access = WebAccess(endpoint: WebEndpoint(host: "127.0.0.1", port: port), token: "s3cret-token")
        let host = "127.0.0.1:\(port)"
        check(access, [
            row(host: host, queryToken: "s3cret-token", nil, "?token="),
            row(host: host, tokenHeader: "s3cret-token", nil, "X-Fxhost-Token"),
            row(host: host, authorization: "Bearer s3cret-token", nil, "Authorization: Bearer"),
            row(host: host, tokenHeader: "s3cret-token", queryToken: "wrong", nil, "a right one beside a wrong one"),
            row(host: host, 401, "no token"),
            row(host: host, queryToken: "s3cret-tokeN", 401, "a wrong ?token="),
            row(host: host, queryToken: "s3cret-token-and-more", 401, "the token with more after it"),
            row(host: host, queryToken: "s3cret", 401, "the token's beginning"),
            row(host: host, queryToken: "", 401, "an empty ?token="),
            row(host: host, tokenHeader: "wrong", 401, "a wrong X-Fxhost-Token"),
            row(host: host, authorization: "Bearer wrong", 401, "a wrong bearer"),
            row(host: host, authorization: "Basic s3cret-token", 401, "another scheme than Bearer"),
            row(host: host, authorization: "s3cret-token", 401, "no scheme"),
            row(host: "evil.example:\(port)", queryToken: "s3cret-token", 403, "the token does not excuse a foreign Host"),
        ])
        // Without a token (loopback, no --web-token), none is asked for.
        check(loopback, [row(host: host, nil, "loopback without a token")])
    }

    func testAGeneratedTokenIs128BitsOfHex() {
        let tokens = (0..<4).map { _ in WebAccess.generatedToken() }
        for token in tokens {
            XCTAssertEqual(token.count, 32, token)
            XCTAssertTrue(token.allSatisfy(\.isHexDigit), token)
        }
        XCTAssertEqual(Set(tokens).count, tokens.count, "four draws of 128 bits are distinct")
    }
}
