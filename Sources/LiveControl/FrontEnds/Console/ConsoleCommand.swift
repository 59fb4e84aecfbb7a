import HostCore
import JackIO

/// One line typed on the console while `fxhost run` plays, parsed: a
/// `ControlCommand` read by its entry in `CommandTable` (the same table
/// OSC and JSON read from), or what only the console has (`help`). (A line
/// that starts with `{` is a JSON command: `ConsoleInterpreter` reads it.)
package enum ConsoleCommand: Equatable {
    case control(ControlCommand, answer: Answer)
    case help

    /// How the console prints what a command answers.
    package enum Answer: Equatable {
        /// As text (changes are echoed by `ConsoleEcho`).
        case text
        /// A question's answer as JSON: `status --json`, `show amp --json`.
        case json
    }

    /// `help`: every command of the table, then the console's own.
    package static let usage: String = {
        var lines = ["commands:"]
        for spec in CommandTable.all {
            let helpLines = spec.help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if spec.syntax.count < 26 {
                lines.append("  " + spec.syntax.padding(toLength: 26, withPad: " ", startingAt: 0) + helpLines[0])
                lines += helpLines.dropFirst().map { String(repeating: " ", count: 28) + $0 }
            } else {
                lines.append("  " + spec.syntax)
                lines += helpLines.map { String(repeating: " ", count: 28) + $0 }
            }
            if spec.name == "status" {
                // The console's own, listed where the questions are.
                lines.append("  help                      this list")
            }
        }
        return lines.joined(separator: "\n")
    }()

    /// The first words the console takes: the table's and its own.
    package static let names = CommandTable.consoleWords + ["help"]

    /// nil for a blank line or a comment.
    package static func parse(_ line: String) throws(FrontEndError) -> ConsoleCommand? {
        var words = try ConsoleWords.split(line)
        guard let name = words.first?.lowercased() else { return nil }
        if name.hasPrefix("#") { return nil }
        if name == "help" || name == "?" { return .help }
        guard let (spec, _) = CommandTable.matching(words) else {
            let hint = Suggestion.didYouMean(name, in: names).map { " (\($0))" } ?? "; type `help` for the list"
            throw FrontEndError("there is no command `\(name)`\(hint)")
        }
        // A question answers in JSON when asked to: `status --json`.
        let json = spec.isQuery && words.count > spec.words.count && words.last == "--json"
        if json { words.removeLast() }
        let arguments = ConsoleArguments(Array(words.dropFirst(spec.words.count)))
        return .control(try spec.console(arguments), answer: json ? .json : .text)
    }
}

/// Splits a line into words; double quotes group words with spaces.
package enum ConsoleWords {
    package static func split(_ line: String) throws(FrontEndError) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false, inWord = false
        for character in line {
            if character == "\"" {
                quoted.toggle()
                inWord = true
            } else if character.isWhitespace && !quoted {
                if inWord { words.append(current) }
                current = ""
                inWord = false
            } else {
                current.append(character)
                inWord = true
            }
        }
        guard !quoted else { throw FrontEndError("a quote is not closed") }
        if inWord { words.append(current) }
        return words
    }
}
