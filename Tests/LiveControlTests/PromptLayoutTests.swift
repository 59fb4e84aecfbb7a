@testable import LiveControl
import XCTest

/// How the prompt fits a line to the terminal's width.
final class PromptLayoutTests: XCTestCase {
    func testAShortLineIsShownWholeWithTheCursorAfterThePrompt() {
        let line = PromptLayout.inputLine(prompt: "fxhost> ", characters: Array("set amp"), cursor: 4, width: 80)
        XCTAssertEqual(line.text, "fxhost> set amp")
        XCTAssertEqual(line.column, 12)
    }

    func testALongLineScrollsSidewaysToKeepTheCursorInViewAndNeverFillsTheLastColumn() {
        let characters = Array("tap drive /a/very/long/path/to/a/take.flac")  // 42 characters
        let atEnd = PromptLayout.inputLine(prompt: "> ", characters: characters, cursor: 42, width: 21)
        XCTAssertEqual(atEnd.text, "> " + String(characters[25...]))
        XCTAssertEqual(atEnd.column, 19, "the cursor after the text, in the 20th column")
        XCTAssertLessThan(atEnd.column, 20, "the 21st column stays empty: writing there would wrap")
        let atStart = PromptLayout.inputLine(prompt: "> ", characters: characters, cursor: 0, width: 21)
        XCTAssertEqual(atStart.text, "> " + String(characters[..<18]))
        XCTAssertEqual(atStart.column, 2)
    }

    func testTheStatusLineIsCutToTheWidth() {
        XCTAssertEqual(PromptLayout.statusLine("0:12.3  DSP 3.1%  xruns 0", width: 11), "0:12.3  DS")
        XCTAssertEqual(PromptLayout.statusLine("0:12.3", width: 80), "0:12.3")
    }

    func testClearingGoesUpOneLinePerLineDrawn() {
        XCTAssertEqual(PromptLayout.clear(lines: 0), "")
        XCTAssertEqual(PromptLayout.clear(lines: 1), "\r\u{1B}[2K")
        XCTAssertEqual(PromptLayout.clear(lines: 2), "\r\u{1B}[2K\u{1B}[1A\r\u{1B}[2K")
    }

    func testNamesInColumnsDownThenAcross() {
        XCTAssertEqual(PromptLayout.columns(["amp", "drive", "main", "monitor", "room"], width: 30),
                       "amp      main     room\ndrive    monitor\n")
        XCTAssertEqual(PromptLayout.columns(["a", "b"], width: 2), "a\nb\n", "one column when nothing more fits")
    }
}
