@testable import LiveControl
import XCTest

/// Keys in, line and cursor out: the prompt's editing as readline's
/// default Emacs keys define it.
final class LineEditorTests: XCTestCase {
    private func editor(typing text: String, history: [String] = []) -> LineEditor {
        var editor = LineEditor(history: LineHistory(history))
        for character in text { _ = editor.handle(.character(character)) }
        return editor
    }

    private func press(_ keys: ConsoleKey..., on editor: inout LineEditor) -> [LineEditor.Event] {
        keys.map { editor.handle($0) }
    }

    func testTypingInsertsAtTheCursorAndMovesIt() {
        var editor = editor(typing: "set amp")
        XCTAssertEqual(editor.text, "set amp")
        XCTAssertEqual(editor.cursor, 7)
        _ = press(.left, .left, .left, on: &editor)
        _ = press(.character("X"), on: &editor)
        XCTAssertEqual(editor.text, "set Xamp")
        XCTAssertEqual(editor.cursor, 5)
    }

    func testHomeEndAndTheirControlKeys() {
        var editor = editor(typing: "bypass room on")
        XCTAssertEqual(press(.home, on: &editor), [.edited])
        XCTAssertEqual(editor.cursor, 0)
        XCTAssertEqual(press(.home, on: &editor), [.unchanged], "already at the start")
        _ = press(.end, on: &editor)
        XCTAssertEqual(editor.cursor, 14)
        _ = press(.control("a"), on: &editor)
        XCTAssertEqual(editor.cursor, 0)
        _ = press(.control("e"), on: &editor)
        XCTAssertEqual(editor.cursor, 14)
        XCTAssertEqual(press(.right, on: &editor), [.unchanged], "nothing after the end")
        _ = press(.control("b"), .control("b"), .control("f"), on: &editor)
        XCTAssertEqual(editor.cursor, 13)
    }

    func testBackspaceAndDelete() {
        var editor = editor(typing: "statuss")
        _ = press(.backspace, on: &editor)
        XCTAssertEqual(editor.text, "status")
        _ = press(.home, .delete, on: &editor)
        XCTAssertEqual(editor.text, "tatus")
        XCTAssertEqual(editor.cursor, 0)
        XCTAssertEqual(press(.backspace, on: &editor), [.unchanged], "nothing before the start")
        _ = press(.control("d"), on: &editor)
        XCTAssertEqual(editor.text, "atus", "Ctrl-D on a line deletes under the cursor")
        _ = press(.end, .control("h"), on: &editor)
        XCTAssertEqual(editor.text, "atu")
    }

    func testControlDOnAnEmptyLineEndsTheInput() {
        var editor = editor(typing: "")
        XCTAssertEqual(press(.control("d"), on: &editor), [.endOfInput])
    }

    func testKillKeysAndYank() {
        var editor = editor(typing: "set amp gain -6")
        _ = press(.wordLeft, .wordLeft, on: &editor)  // a word is letters and digits: `6`, then `gain`
        XCTAssertEqual(editor.cursor, 8, "two words back from the end: the start of `gain`")
        _ = press(.control("k"), on: &editor)
        XCTAssertEqual(editor.text, "set amp ")
        _ = press(.control("y"), on: &editor)
        XCTAssertEqual(editor.text, "set amp gain -6", "Ctrl-Y puts back what Ctrl-K took")
        XCTAssertEqual(editor.cursor, 15)
        _ = press(.control("w"), on: &editor)
        XCTAssertEqual(editor.text, "set amp gain ", "Ctrl-W takes the word up to a space, the minus too")
        _ = press(.control("w"), on: &editor)
        XCTAssertEqual(editor.text, "set amp ")
        _ = press(.left, .left, on: &editor)
        _ = press(.control("u"), on: &editor)
        XCTAssertEqual(editor.text, "p ")
        XCTAssertEqual(editor.cursor, 0)
    }

    func testWordMovesAndWordDeletesStopAtPunctuation() {
        var editor = editor(typing: "tap drive:1 take.flac")
        _ = press(.alt("b"), on: &editor)
        XCTAssertEqual(editor.cursor, 17, "the start of `flac`")
        _ = press(.altBackspace, on: &editor)
        XCTAssertEqual(editor.text, "tap drive:1 flac")
        XCTAssertEqual(editor.cursor, 12)
        _ = press(.home, .alt("f"), on: &editor)
        XCTAssertEqual(editor.cursor, 3, "the end of `tap`")
        _ = press(.wordRight, on: &editor)
        XCTAssertEqual(editor.cursor, 9, "the end of `drive`")
        _ = press(.alt("d"), on: &editor)
        XCTAssertEqual(editor.text, "tap drive flac", "Alt-D deletes `:1`")
    }

    func testEnterSubmitsTheLineAndEmptiesTheEditor() {
        var editor = editor(typing: "status")
        _ = press(.left, on: &editor)
        XCTAssertEqual(press(.enter, on: &editor), [.submitted("status")], "the whole line, wherever the cursor is")
        XCTAssertEqual(editor.text, "")
        XCTAssertEqual(editor.cursor, 0)
        XCTAssertEqual(editor.history.entries, ["status"])
    }

    func testUpAndDownBrowseTheHistoryAndKeepTheLineBeingWritten() {
        var editor = editor(typing: "bypa", history: ["set amp gain -6", "status"])
        _ = press(.up, on: &editor)
        XCTAssertEqual(editor.text, "status")
        XCTAssertEqual(editor.cursor, 6)
        _ = press(.up, on: &editor)
        XCTAssertEqual(editor.text, "set amp gain -6")
        XCTAssertEqual(press(.up, on: &editor), [.unchanged], "nothing older")
        _ = press(.down, .down, on: &editor)
        XCTAssertEqual(editor.text, "bypa", "back to the line being written")
        XCTAssertEqual(press(.down, on: &editor), [.unchanged])
        _ = press(.control("p"), on: &editor)
        XCTAssertEqual(editor.text, "status")
        _ = press(.character("!"), .enter, on: &editor)
        XCTAssertEqual(editor.history.entries, ["set amp gain -6", "status", "status!"])
        _ = press(.up, on: &editor)
        XCTAssertEqual(editor.text, "status!", "the submitted line is the newest entry")
    }

    func testTabAsksForACompletionAndReplaceTakesIt() {
        var editor = editor(typing: "set am gain")
        _ = press(.wordLeft, .left, on: &editor)
        XCTAssertEqual(press(.tab, on: &editor), [.complete])
        editor.replace(4..<6, with: "amp")
        XCTAssertEqual(editor.text, "set amp gain")
        XCTAssertEqual(editor.cursor, 7)
    }

    func testUnknownKeysChangeNothing() {
        var editor = editor(typing: "quit")
        XCTAssertEqual(press(.control("g"), .alt("z"), on: &editor), [.unchanged, .unchanged])
        XCTAssertEqual(press(.control("l"), on: &editor), [.clearScreen])
        XCTAssertEqual(editor.text, "quit")
    }
}
