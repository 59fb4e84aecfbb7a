/// What the console prompt writes to the terminal, as text: the input
/// line fitted to the width, the status line cut to it, a list of names
/// in columns, and the VT100 sequences that move between the two lines.
/// Pure, so the drawing is tested without a terminal. A character counts
/// as one column (wide East Asian characters would count two: not handled).
enum PromptLayout {
    static let clearLine = "\r\u{1B}[2K"
    static let lineUp = "\u{1B}[1A"
    static let saveCursor = "\u{1B}7"
    static let restoreCursor = "\u{1B}8"
    static let clearScreen = "\u{1B}[H\u{1B}[2J"

    /// The prompt and as much of the line as fits in `width - 1` columns
    /// (the last column is never written, so the terminal never wraps),
    /// scrolled sideways to keep the cursor in view; and the cursor's column.
    static func inputLine(prompt: String, characters: [Character], cursor: Int, width: Int) -> (text: String, column: Int) {
        let room = max(width - 1 - prompt.count, 8)
        let start = cursor < room ? 0 : cursor - room + 1
        let shown = characters[start..<min(characters.count, start + room)]
        return (prompt + String(shown), prompt.count + cursor - start)
    }

    /// The status text cut to `width - 1` columns.
    static func statusLine(_ text: String, width: Int) -> String {
        String(text.prefix(max(width - 1, 1)))
    }

    /// Moves to the cursor's column from the start of the line.
    static func column(_ column: Int) -> String {
        "\r" + (column > 0 ? "\u{1B}[\(column)C" : "")
    }

    /// Clears the lines the prompt drew (`lines`: 0, 1 or 2), leaving the
    /// cursor at the start of the topmost, where the next text goes.
    static func clear(lines: Int) -> String {
        guard lines > 0 else { return "" }
        return clearLine + String(repeating: lineUp + clearLine, count: lines - 1)
    }

    /// Names in columns as wide as the longest, as many as fit in `width`, filled down then across.
    static func columns(_ names: [String], width: Int) -> String {
        guard let longest = names.map(\.count).max() else { return "" }
        let columnWidth = longest + 2
        let columns = max(1, (width - 1) / columnWidth)
        let rows = (names.count + columns - 1) / columns
        return (0..<rows).map { row in
            stride(from: row, to: names.count, by: rows).map { index in
                let name = names[index]
                return index + rows < names.count ? name + String(repeating: " ", count: columnWidth - name.count) : name
            }.joined()
        }.joined(separator: "\n") + "\n"
    }
}
