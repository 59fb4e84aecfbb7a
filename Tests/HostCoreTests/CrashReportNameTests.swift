import XCTest
@testable import HostCore

/// Names the crash sentence quotes (a node's, from code or a patch; a
/// plugin's, from its bundle): what a signal handler prints raw, so they are
/// made printable when registered. Oracle: the text written out.
final class CrashReportNameTests: XCTestCase {
    func testControlCharactersAreShownNotSent() {
        XCTAssertEqual(CrashReport.printable("bad\u{1B}]0;owned\u{07}\nnode"), "bad\\e]0;owned\\x07\\nnode")
    }

    func testALongNameIsCutAtACharacterWithin200Bytes() {
        // 150 two-byte characters (300 bytes): 100 fit in 200 bytes.
        let cut = CrashReport.printable(String(repeating: "é", count: 150))
        XCTAssertEqual(cut, String(repeating: "é", count: 100) + "…")
        XCTAssertEqual(CrashReport.printable("short"), "short")
    }
}
