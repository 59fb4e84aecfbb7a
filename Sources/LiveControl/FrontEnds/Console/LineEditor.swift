/// The line being typed at the console prompt and what keys do to it:
/// Emacs keys as readline and libedit bind them by default. A plain value
/// (keys in, text and cursor out), so its behaviour is tested without a
/// terminal; `ConsolePrompt` feeds it and `PromptScreen` draws it.
struct LineEditor {
    private(set) var characters: [Character] = []
    /// Where the next character goes, 0...characters.count.
    private(set) var cursor = 0
    private(set) var history: LineHistory
    /// Which history entry is shown; `history.entries.count` is the line being written.
    private var historyPosition: Int
    /// The line being written, kept while the history is browsed.
    private var draft: [Character] = []
    /// What the last Ctrl-K, Ctrl-U, Ctrl-W or Alt-D removed, for Ctrl-Y.
    private var killed: [Character] = []

    enum Event: Equatable {
        /// The line or the cursor changed: draw it again.
        case edited
        /// Nothing to do (a key with no meaning here, a move past an end).
        case unchanged
        /// Enter: this line is a command (the editor is empty again).
        case submitted(String)
        /// Tab: complete the word at the cursor.
        case complete
        /// Ctrl-D on an empty line.
        case endOfInput
        /// Ctrl-L: clear the screen and draw the prompt again.
        case clearScreen
    }

    init(history: LineHistory = LineHistory()) {
        self.history = history
        historyPosition = history.entries.count
    }

    var text: String { String(characters) }

    mutating func handle(_ key: ConsoleKey) -> Event {
        switch key {
        case .character(let character): insert([character])
        case .enter: return submit()
        case .tab: return .complete
        case .backspace, .control("h"): return deleteBackward()
        case .delete: return deleteForward()
        case .control("d"): return characters.isEmpty ? .endOfInput : deleteForward()
        case .left, .control("b"): return move(to: cursor - 1)
        case .right, .control("f"): return move(to: cursor + 1)
        case .home, .control("a"): return move(to: 0)
        case .end, .control("e"): return move(to: characters.count)
        case .wordLeft, .alt("b"): return move(to: wordStart(before: cursor))
        case .wordRight, .alt("f"): return move(to: wordEnd(after: cursor))
        case .up, .control("p"): return browseHistory(by: -1)
        case .down, .control("n"): return browseHistory(by: 1)
        case .control("k"): return kill(cursor..<characters.count)
        case .control("u"): return kill(0..<cursor)
        case .control("w"): return kill(spaceDelimitedWordStart(before: cursor)..<cursor)
        case .altBackspace: return kill(wordStart(before: cursor)..<cursor)
        case .alt("d"): return kill(cursor..<wordEnd(after: cursor))
        case .control("y"):
            guard !killed.isEmpty else { return .unchanged }
            insert(killed)
        case .control("l"): return .clearScreen
        default: return .unchanged
        }
        return .edited
    }

    /// Puts `replacement` where `range` was and the cursor after it (a completion).
    mutating func replace(_ range: Range<Int>, with replacement: String) {
        characters.replaceSubrange(range, with: Array(replacement))
        cursor = range.lowerBound + replacement.count
    }

    private mutating func insert(_ inserted: [Character]) {
        characters.insert(contentsOf: inserted, at: cursor)
        cursor += inserted.count
    }

    private mutating func submit() -> Event {
        let line = text
        history.add(line)
        historyPosition = history.entries.count
        characters = []
        draft = []
        cursor = 0
        return .submitted(line)
    }

    private mutating func move(to position: Int) -> Event {
        let clamped = min(max(position, 0), characters.count)
        guard clamped != cursor else { return .unchanged }
        cursor = clamped
        return .edited
    }

    private mutating func deleteBackward() -> Event {
        guard cursor > 0 else { return .unchanged }
        characters.remove(at: cursor - 1)
        cursor -= 1
        return .edited
    }

    private mutating func deleteForward() -> Event {
        guard cursor < characters.count else { return .unchanged }
        characters.remove(at: cursor)
        return .edited
    }

    private mutating func kill(_ range: Range<Int>) -> Event {
        guard !range.isEmpty else { return .unchanged }
        killed = Array(characters[range])
        characters.removeSubrange(range)
        cursor = range.lowerBound
        return .edited
    }

    /// Up (-1) to older lines, down (+1) back towards the line being written.
    private mutating func browseHistory(by step: Int) -> Event {
        let position = historyPosition + step
        guard position >= 0, position <= history.entries.count else { return .unchanged }
        if historyPosition == history.entries.count { draft = characters }
        historyPosition = position
        characters = position == history.entries.count ? draft : Array(history.entries[position])
        cursor = characters.count
        return .edited
    }

    /// Words for moves and Alt-Backspace are letters and digits, as readline's are.
    private static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber
    }

    private func wordStart(before position: Int) -> Int {
        var index = position
        while index > 0, !Self.isWordCharacter(characters[index - 1]) { index -= 1 }
        while index > 0, Self.isWordCharacter(characters[index - 1]) { index -= 1 }
        return index
    }

    private func wordEnd(after position: Int) -> Int {
        var index = position
        while index < characters.count, !Self.isWordCharacter(characters[index]) { index += 1 }
        while index < characters.count, Self.isWordCharacter(characters[index]) { index += 1 }
        return index
    }

    /// Ctrl-W's word ends at a space, as readline's unix-word-rubout.
    private func spaceDelimitedWordStart(before position: Int) -> Int {
        var index = position
        while index > 0, characters[index - 1].isWhitespace { index -= 1 }
        while index > 0, !characters[index - 1].isWhitespace { index -= 1 }
        return index
    }
}
