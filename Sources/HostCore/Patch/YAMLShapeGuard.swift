/// A cheap lexical pass over the YAML text, run before Yams sees it, that
/// refuses the two things that make a YAML composer blow up:
///
/// - anchors and aliases (`&a`, `*a`): an alias bomb ("billion laughs")
///   expands exponentially, and Yams hashes mapping keys recursively, so even
///   composing one can take forever. Patches never need them.
/// - nesting deeper than `depthLimit`: Yams composes recursively, and a
///   megabyte of `[` would overflow the stack.
///
/// It tracks just enough YAML (quotes, comments, flow brackets, block scalars,
/// indentation) to find where a node starts; it is deliberately conservative.
struct YAMLShapeGuard {
    static let depthLimit = 64

    let path: String

    func check(_ text: String) throws(GraphError) {
        var scanner = Scanner()
        for line in Self.lines(of: text) { try scanner.scan(line: line, path: path) }
    }

    /// Lines as YAML (libyaml) counts them: broken by LF, CR, CRLF, NEL, LS or PS.
    static func lines(of text: String) -> [[Unicode.Scalar]] {
        var lines: [[Unicode.Scalar]] = [[]]
        var afterCarriageReturn = false
        for scalar in text.unicodeScalars {
            defer { afterCarriageReturn = scalar == "\r" }
            switch scalar {
            case "\n" where afterCarriageReturn:
                continue  // the second half of CRLF
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                lines.append([])
            default:
                lines[lines.count - 1].append(scalar)
            }
        }
        return lines
    }

    private struct Scanner {
        var lineNumber = 0
        var flowDepth = 0
        var quote: Unicode.Scalar?
        /// Indentation of the line that opened a block scalar (`|` or `>`), while skipping its content.
        var blockScalarIndent: Int?
        /// Indentations of the enclosing block collections.
        var indents: [Int] = []

        mutating func scan(line: [Unicode.Scalar], path: String) throws(GraphError) {
            lineNumber += 1
            var index = 0
            while index < line.count, line[index] == " " || line[index] == "\t" { index += 1 }
            let indent = index
            let blank = index == line.count || line[index] == "#"

            if let opener = blockScalarIndent {
                if blank || indent > opener { return }  // block scalar content: any text
                blockScalarIndent = nil
            }
            if blank && quote == nil { return }
            if quote == nil && flowDepth == 0 {
                while let last = indents.last, last > indent { indents.removeLast() }
                if indents.last != indent {
                    indents.append(indent)
                    try checkDepth(0, at: SourceLocation(file: path, line: lineNumber, column: indent + 1))
                }
            }

            // True where a new node may begin: line start, or after an indicator.
            var atNodeStart = quote == nil
            var compactLevels = 0
            while index < line.count {
                let character = line[index]
                let next: Unicode.Scalar? = index + 1 < line.count ? line[index + 1] : nil
                let location = SourceLocation(file: path, line: lineNumber, column: index + 1)

                if let open = quote {
                    if character == "\\" && open == "\"" {
                        index += 2
                        continue
                    }
                    if character == open {
                        if open == "'" && next == "'" {
                            index += 2
                            continue
                        }
                        quote = nil
                    }
                    index += 1
                    continue
                }
                if character == " " || character == "\t" {
                    index += 1
                    continue
                }
                if character == "#" && (index == 0 || line[index - 1] == " " || line[index - 1] == "\t") {
                    return  // comment to end of line
                }

                let separated = next == nil || next == " " || next == "\t"
                if atNodeStart {
                    switch character {
                    case "&", "*":
                        if !separated {
                            var end = index + 1
                            while end < line.count, !" \t,[]{}".unicodeScalars.contains(line[end]) { end += 1 }
                            let token = String(String.UnicodeScalarView(line[index..<end]))
                            throw GraphError("YAML anchors and aliases are not allowed in patches (found `\(token)`); write the value out in full, or quote it if it is text",
                                             at: location)
                        }
                    case "'", "\"":
                        quote = character
                        atNodeStart = false
                        index += 1
                        continue
                    case "[", "{":
                        flowDepth += 1
                        try checkDepth(compactLevels, at: location)
                        index += 1
                        continue
                    case "-", "?":
                        if separated {
                            compactLevels += 1
                            try checkDepth(compactLevels, at: location)
                            index += 1
                            continue
                        }
                    case "!":
                        // A tag: the node (and perhaps its anchor) follows it.
                        while index < line.count, line[index] != " ", line[index] != "\t" { index += 1 }
                        continue
                    case "|", ">":
                        if flowDepth == 0 {
                            blockScalarIndent = indent
                            return
                        }
                    default:
                        break
                    }
                }
                // Inside flow collections brackets always nest (plain scalars cannot contain them).
                if flowDepth > 0 {
                    switch character {
                    case "[", "{":
                        flowDepth += 1
                        try checkDepth(compactLevels, at: location)
                        atNodeStart = true
                    case "]", "}":
                        flowDepth -= 1
                        atNodeStart = false
                    case ",", ":", "?":
                        atNodeStart = true
                    default:
                        atNodeStart = false
                    }
                } else {
                    atNodeStart = character == ":" && separated
                }
                index += 1
            }
        }

        private func checkDepth(_ compactLevels: Int, at location: SourceLocation) throws(GraphError) {
            if indents.count + compactLevels + flowDepth > YAMLShapeGuard.depthLimit {
                throw GraphError("YAML is nested more than \(YAMLShapeGuard.depthLimit) levels deep; patches need only a few",
                                 at: location)
            }
        }
    }
}
