import LiveControl
import WebControl
import XCTest

/// `--web [HOST:]PORT` as issue 17 states it: a bare port means 127.0.0.1;
/// a host is an address (IPv4, or IPv6 in brackets) or `localhost`; a port
/// is 0 to 65535. Anything else is refused with a sentence naming what was
/// given and what is taken.
final class WebEndpointTests: XCTestCase {
    func testTheFormsItTakes() throws {
        let rows: [(String, host: String, port: Int, loopback: Bool, described: String)] = [
            ("8080", "127.0.0.1", 8080, true, "127.0.0.1:8080"),
            ("0", "127.0.0.1", 0, true, "127.0.0.1:0"),
            ("0.0.0.0:8080", "0.0.0.0", 8080, false, "0.0.0.0:8080"),
            ("[::1]:8080", "::1", 8080, true, "[::1]:8080"),
            ("[::]:8080", "::", 8080, false, "[::]:8080"),
            ("localhost:80", "127.0.0.1", 80, true, "127.0.0.1:80"),
            ("192.168.1.20:65535", "192.168.1.20", 65_535, false, "192.168.1.20:65535"),
        ]
        for row in rows {
            let endpoint = try WebEndpoint(parsing: row.0)
            XCTAssertEqual(endpoint.host, row.host, row.0)
            XCTAssertEqual(endpoint.port, row.port, row.0)
            XCTAssertEqual(endpoint.isLoopback, row.loopback, row.0)
            XCTAssertEqual(endpoint.description, row.described, row.0)
        }
        XCTAssertTrue(try WebEndpoint(parsing: "0.0.0.0:1").isWildcard)
        XCTAssertTrue(try WebEndpoint(parsing: "[::]:1").isWildcard)
        XCTAssertFalse(try WebEndpoint(parsing: "1").isWildcard)
    }

    func testWhatItRefusesWithItsSentence() {
        let usage = "--web takes PORT or HOST:PORT"
        let rows: [(String, sentence: String)] = [
            ("70000", usage),
            ("65536", usage),
            ("-1", usage),
            ("abc", usage),
            ("", usage),
            ("99999999999999999999999999", usage),
            ("0.0.0.0:", usage),
            ("0.0.0.0:8080:1", usage),
            ("[::1]", usage),
            ("[::1]:", usage),
            ("[::1]:70000", usage),
            ("::1:8080", usage),
            ("evil.example:8080", "`evil.example` is not an IP address"),
            ("300.1.1.1:8080", "`300.1.1.1` is not an IP address"),
            ("[nope]:8080", "`nope` is not an IP address"),
            ("[127.0.0.1]:8080", "`127.0.0.1` is not an IP address"),
        ]
        for (text, sentence) in rows {
            do {
                let endpoint = try WebEndpoint(parsing: text)
                XCTFail("`\(text)` was taken as \(endpoint)")
            } catch {
                let said = error.description
                XCTAssertTrue(said.contains(sentence), "`\(text)`: \(said)")
                if sentence == usage { XCTAssertTrue(said.contains("not `\(text)`"), said) }
            }
        }
    }
}
