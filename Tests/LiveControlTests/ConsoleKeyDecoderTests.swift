@testable import LiveControl
import XCTest

/// Bytes as xterm, tmux and the Linux console send them, decoded into keys.
final class ConsoleKeyDecoderTests: XCTestCase {
    private func keys(_ bytes: [UInt8]) -> [ConsoleKey] {
        var decoder = ConsoleKeyDecoder()
        return decoder.keys(from: bytes)
    }

    private func escape(_ text: String) -> [UInt8] { [0x1B] + Array(text.utf8) }

    func testTextAndControlCharacters() {
        XCTAssertEqual(keys(Array("ab ".utf8)), [.character("a"), .character("b"), .character(" ")])
        XCTAssertEqual(keys([0x0D, 0x0A, 0x09, 0x7F, 0x08]), [.enter, .enter, .tab, .backspace, .backspace])
        XCTAssertEqual(keys([0x01, 0x05, 0x0B, 0x15, 0x17, 0x04]),
                       [.control("a"), .control("e"), .control("k"), .control("u"), .control("w"), .control("d")])
    }

    func testUTF8CharactersEvenWhenSplitBetweenReads() {
        XCTAssertEqual(keys(Array("→é".utf8)), [.character("→"), .character("é")])
        var decoder = ConsoleKeyDecoder()
        let arrow = Array("→".utf8)
        XCTAssertEqual(decoder.keys(from: arrow[..<1]), [])
        XCTAssertEqual(decoder.keys(from: arrow[1...]), [.character("→")])
    }

    func testCursorKeysInEveryDialect() {
        XCTAssertEqual(keys(escape("[A") + escape("[B") + escape("[C") + escape("[D")), [.up, .down, .right, .left])
        XCTAssertEqual(keys(escape("OA") + escape("OD") + escape("OH") + escape("OF")), [.up, .left, .home, .end])
        XCTAssertEqual(keys(escape("[H") + escape("[F") + escape("[1~") + escape("[4~") + escape("[7~") + escape("[8~")),
                       [.home, .end, .home, .end, .home, .end])
        XCTAssertEqual(keys(escape("[3~")), [.delete])
        XCTAssertEqual(keys(escape("[1;5D") + escape("[1;5C") + escape("[1;3D")), [.wordLeft, .wordRight, .wordLeft])
    }

    func testAltKeys() {
        XCTAssertEqual(keys(escape("b") + escape("f") + escape("d")), [.alt("b"), .alt("f"), .alt("d")])
        XCTAssertEqual(keys([0x1B, 0x7F]), [.altBackspace])
    }

    func testASequenceSplitBetweenReadsWaitsForItsEnd() {
        var decoder = ConsoleKeyDecoder()
        XCTAssertEqual(decoder.keys(from: [0x1B]), [])
        XCTAssertEqual(decoder.keys(from: Array("[1;".utf8)), [])
        XCTAssertEqual(decoder.keys(from: Array("5Cx".utf8)), [.wordRight, .character("x")])
    }

    func testUnknownSequencesTypeNothing() {
        XCTAssertEqual(keys(escape("[15~") + Array("a".utf8) + escape("[200~") + escape("[Z")), [.character("a")])
    }
}
