import Yams

/// A patch's text as the parser's marks address it (1-based lines, columns
/// counted in characters), and the edits to make to it: replacements of
/// ranges, applied together at the end so every mark still points where
/// the parser saw it.
struct PatchTextBuffer {
    private(set) var scalars: [Unicode.Scalar]
    /// Offset of each line's first character.
    private let lineStarts: [Int]
    /// `\r\n` when the file uses it, so inserted lines match.
    let lineEnd: String
    private var edits: [(start: Int, end: Int, text: String)] = []

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        var starts = [0]
        for (index, scalar) in scalars.enumerated() where scalar == "\n" { starts.append(index + 1) }
        lineStarts = starts
        lineEnd = text.contains("\r\n") ? "\r\n" : "\n"
    }

    var lineCount: Int { lineStarts.count }

    func offset(_ mark: Mark) -> Int? {
        guard mark.line >= 1, mark.line <= lineStarts.count else { return nil }
        let offset = lineStarts[mark.line - 1] + mark.column - 1
        return offset <= scalars.count ? offset : nil
    }

    /// A line's characters, without its line end.
    func line(_ number: Int) -> ArraySlice<Unicode.Scalar> {
        let start = lineStarts[number - 1]
        var end = number < lineStarts.count ? lineStarts[number] - 1 : scalars.count
        if end > start, scalars[end - 1] == "\r" { end -= 1 }
        return scalars[start..<end]
    }

    /// Offset just past a line's end (the start of the next line).
    func endOffset(ofLine number: Int) -> Int {
        number < lineStarts.count ? lineStarts[number] : scalars.count
    }

    func startOffset(ofLine number: Int) -> Int { lineStarts[number - 1] }

    /// Spaces before the line's first character; nil for a blank line or
    /// one holding only a comment.
    func indentation(ofLine number: Int) -> Int? {
        let characters = line(number)
        guard let first = characters.firstIndex(where: { $0 != " " }) else { return nil }
        if characters[first] == "#" { return nil }
        return first - characters.startIndex
    }

    /// Whether a line's content starts a block sequence item (`- x`).
    func startsSequenceItem(_ number: Int) -> Bool {
        let characters = line(number).drop { $0 == " " }
        guard characters.first == "-" else { return false }
        let next = characters.dropFirst().first
        return next == nil || next == " "
    }

    /// The last line of a block collection whose entries start at
    /// `indent` spaces, the first on `line`: lines indented deeper (or
    /// sequence items at that indentation, which YAML allows under a key)
    /// belong to it; trailing blank and comment lines do not (they are
    /// more likely about what follows).
    func lastLine(ofBlockStartingAt line: Int, indent: Int) -> Int {
        var last = line
        var number = line + 1
        while number <= lineCount {
            if let depth = indentation(ofLine: number) {
                guard depth > indent || (depth == indent && startsSequenceItem(number)) else { break }
                last = number
            }
            number += 1
        }
        return last
    }

    /// The offset just past a single-line scalar's text, or nil when its
    /// end cannot be found with certainty (a multi-line or block scalar).
    func scalarEnd(_ scalar: Node.Scalar) -> Int? {
        guard let mark = scalar.mark, let start = offset(mark), !scalar.string.contains("\n") else { return nil }
        switch scalar.style {
        case .plain:
            // A plain scalar on one line is its own text: no escapes.
            let end = start + scalar.string.unicodeScalars.count
            guard end <= scalars.count, String(String.UnicodeScalarView(scalars[start..<end])) == scalar.string else {
                return nil
            }
            return end
        case .doubleQuoted:
            var index = start + 1
            while index < scalars.count, scalars[index] != "\n" {
                if scalars[index] == "\\" { index += 2; continue }
                if scalars[index] == "\"" { return index + 1 }
                index += 1
            }
            return nil
        case .singleQuoted:
            var index = start + 1
            while index < scalars.count, scalars[index] != "\n" {
                if scalars[index] == "'" {
                    if index + 1 < scalars.count, scalars[index + 1] == "'" { index += 2; continue }
                    return index + 1
                }
                index += 1
            }
            return nil
        default:
            return nil
        }
    }

    /// Whether the collection starting at `mark` is written in flow style
    /// (`{ ... }`, `[ ... ]`); Yams' composer does not keep the style.
    func isFlow(_ mark: Mark?) -> Bool {
        guard let mark, let start = offset(mark), start < scalars.count else { return false }
        return scalars[start] == "{" || scalars[start] == "["
    }

    /// The offset of the `}` or `]` closing the flow collection that opens
    /// at `start`, skipping quoted text, comments and nested collections.
    func flowEnd(from start: Int) -> Int? {
        var depth = 0
        var index = start
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "{", "[":
                depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { return index }
            case "\"":
                index += 1
                while index < scalars.count, scalars[index] != "\"" {
                    if scalars[index] == "\\" { index += 1 }
                    index += 1
                }
            case "'":
                index += 1
                while index < scalars.count {
                    if scalars[index] == "'" {
                        if index + 1 < scalars.count, scalars[index + 1] == "'" { index += 2; continue }
                        break
                    }
                    index += 1
                }
            case "#" where index > start && (scalars[index - 1] == " " || scalars[index - 1] == "\t"):
                while index < scalars.count, scalars[index] != "\n" { index += 1 }
            default:
                break
            }
            index += 1
        }
        return nil
    }

    /// The last offset before `end` that is not a space, tab or line break.
    func lastNonSpace(before end: Int) -> Int {
        var index = end - 1
        while index > 0, [" ", "\t", "\n", "\r"].contains(scalars[index]) { index -= 1 }
        return index
    }

    mutating func replace(_ start: Int, _ end: Int, with text: String) {
        edits.append((start, end, text))
    }

    mutating func insert(_ text: String, at offset: Int) {
        edits.append((offset, offset, text))
    }

    /// The text with every edit made; nil when two edits overlap (the
    /// caller then writes the whole patch instead).
    func applied() -> String? {
        let ordered = edits.enumerated().sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }
        var result = String.UnicodeScalarView()
        var position = 0
        for (_, edit) in ordered {
            guard edit.start >= position else { return nil }
            result.append(contentsOf: scalars[position..<edit.start])
            result.append(contentsOf: edit.text.unicodeScalars)
            position = edit.end
        }
        result.append(contentsOf: scalars[position...])
        return String(result)
    }
}
