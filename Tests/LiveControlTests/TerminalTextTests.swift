import Foundation
import HostCore
import LiveControl
import XCTest

/// `TerminalText` against strings written out by hand: what a terminal is
/// sent for text from outside.
final class TerminalTextTests: XCTestCase {
    func testControlCharactersAreShownNotSent() {
        XCTAssertEqual(TerminalText.escaped("\u{1b}]2;PWNED\u{07}.wav"), #"\e]2;PWNED\x07.wav"#)
        XCTAssertEqual(TerminalText.escaped("\u{1b}[2J\u{1b}[H"), #"\e[2J\e[H"#)
        XCTAssertEqual(TerminalText.escaped("a\nb\rc\td\u{0}e\u{7f}f"), #"a\nb\rc\td\x00e\x7ff"#)
        XCTAssertEqual(TerminalText.escaped("\u{9b}2J\u{85}"), #"\u{9b}2J\u{85}"#)
        XCTAssertEqual(TerminalText.escaped("\r\n"), #"\r\n"#, "one Character, two controls")
        XCTAssertEqual(TerminalText.escaped("amp:gain = -6.0 → ü ☃ `a\\b`"), "amp:gain = -6.0 → ü ☃ `a\\b`",
                       "anything else is left as it is")
    }

    func testHostLinesKeepTheirBreaksAndEscapeTheirContents() {
        XCTAssertEqual(TerminalText.escaped(lines: ["taps:", "  amp → a\nb.wav"]), "taps:\n  amp → a\\nb.wav")
    }

    func testALongQuotedStretchIsCut() {
        let long = String(repeating: "g", count: 1_000_000)
        XCTAssertEqual(TerminalText.escaped("there is no node named `\(long)` (really)"),
                       "there is no node named `\(String(repeating: "g", count: 200))…(999800 characters left out)` (really)")
        XCTAssertEqual(TerminalText.escaped("preset \"\(String(repeating: "p", count: 201))\" applied"),
                       "preset \"\(String(repeating: "p", count: 200))…(1 character left out)\" applied")
        let short = String(repeating: "s", count: 200)
        XCTAssertEqual(TerminalText.escaped("`\(short)` and \"\(short)\""), "`\(short)` and \"\(short)\"")
        XCTAssertEqual(TerminalText.escaped("never closed `\(String(repeating: "n", count: 300))"),
                       "never closed `\(String(repeating: "n", count: 200))…(100 characters left out)")
    }

    /// Quotes split to dodge the cut do not: the line is bounded too.
    func testALongLineIsCutWhateverItsQuotes() {
        let dodging = String(repeating: "`" + String(repeating: "x", count: 150), count: 100)
        let text = TerminalText.escaped(dodging)
        XCTAssertLessThanOrEqual(text.count, TerminalText.lineLimit + 40)
        XCTAssertTrue(text.hasPrefix(String(dodging.prefix(800)) + "…("), text)
        XCTAssertTrue(text.hasSuffix(")…" + String(dodging.suffix(200))), text)
        let escapes = TerminalText.escaped(String(repeating: "\u{1b}", count: 5_000))
        XCTAssertEqual(escapes.count, 800 * 2 + "…(4000 characters left out)…".count + 200 * 2)
    }

    /// C1 controls in JSON become JSON's own escape: the same value read back.
    func testJSONForATerminalReadsBackTheSame() throws {
        let json = "{\"error\":\"no node named `\u{9b}2J\u{7f}`\"}"
        let safe = TerminalText.json(json)
        XCTAssertEqual(safe, #"{"error":"no node named `\u009b2J\u007f`"}"#)
        let original = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: String]
        let readBack = try JSONSerialization.jsonObject(with: Data(safe.utf8)) as? [String: String]
        XCTAssertEqual(readBack, original)
        XCTAssertEqual(TerminalText.json(#"{"a": "\u001b"}"#), #"{"a": "\u001b"}"#)
    }
}
