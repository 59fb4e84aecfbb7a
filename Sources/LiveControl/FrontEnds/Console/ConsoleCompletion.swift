import HostCore
import JackIO
import Foundation

/// What Tab does to the word before the cursor: the names that fit where
/// it stands in the command (a command word, a node, one of that node's
/// parameters or presets, on|off, a file, a scene), and what to put in
/// its place. A pure function of the line, the cursor and the names, so
/// it is tested without a terminal or a session.
struct ConsoleCompletion: Equatable {
    /// The characters of the line the completion replaces (the word being typed, its opening quote included).
    var range: Range<Int>
    /// Every name that fits, sorted.
    var candidates: [String]
    /// The candidates as a list shows them (files by their name, not their path).
    var listed: [String]
    /// What goes in place of `range`: the one name (and a space after it),
    /// or the prefix all names share; nil when that adds nothing.
    var replacement: String?

    /// A folder's entries: (name, is a folder). Empty when it cannot be read.
    typealias FolderLister = (String) -> [(name: String, isFolder: Bool)]

    init(range: Range<Int>, candidates: [String], listed: [String]? = nil, replacement: String?) {
        self.range = range
        self.candidates = candidates
        self.listed = listed ?? candidates
        self.replacement = replacement
    }

    static func complete(_ line: [Character], cursor: Int, source: CompletionSource,
                         folders: FolderLister = listFolder) -> ConsoleCompletion {
        let words = Word.split(line[..<cursor])
        let current = words.last!
        let earlier = words.dropLast().map(\.text)
        guard !earlier.isEmpty else {
            let names = source.commands.filter { $0.hasPrefix(current.text) }.sorted()
            return finish(range: current.start..<cursor, typed: current.text, names: names, quoted: current.quoted,
                          quoteSpaces: true)
        }
        let place = Place(earlier: earlier)
        // A preset's label may have spaces: everything after the node is the label (as the parser reads it).
        if let label = place.restOfLine, case .presetLabel = label.kind, let node = source.node(named: earlier[label.index - 1]) {
            let start = words[label.index].start
            let typed = String(line[start..<cursor])
            let names = node.presets.filter { $0.hasPrefix(typed) }.sorted()
            return finish(range: start..<cursor, typed: typed, names: names, quoted: false, quoteSpaces: false)
        }
        if place.kinds.contains(.file) {
            return files(current, cursor: cursor, folders: folders, besides: place.words)
        }
        let fitting = Set(place.words + place.kinds.flatMap { Self.names(for: $0, earlier: earlier, source: source) })
            .filter { $0.hasPrefix(current.text) }.sorted()
        return finish(range: current.start..<cursor, typed: current.text, names: fitting, quoted: current.quoted,
                      quoteSpaces: true)
    }

    /// Where the word being typed stands, by the command table: the
    /// subcommand words that may come here (`pause` after `tap`), and what
    /// each command the words so far may be takes here.
    private struct Place {
        var words: [String] = []
        var kinds: [CommandSpec.CompletionKind] = []
        /// A label that runs to the end of the line (a preset's), and the word it starts at.
        var restOfLine: (kind: CommandSpec.CompletionKind, index: Int)?

        init(earlier: [String]) {
            let typed = earlier.map { $0.lowercased() }
            let position = typed.count
            // The longest match of a command's words, as the parser reads the line.
            let matched = CommandTable.all.filter { spec in
                let firsts = [spec.words[0]] + spec.aliases
                return typed.count >= spec.words.count && firsts.contains(typed[0])
                    && Array(typed[1..<spec.words.count]) == Array(spec.words.dropFirst())
            }
            let longest = matched.map(\.words.count).max() ?? 0
            for spec in matched where spec.words.count == longest {
                let index = position - spec.words.count
                for (offset, kind) in spec.completion.enumerated() where offset <= index && kind == .presetLabel {
                    restOfLine = (kind, spec.words.count + offset)
                }
                // A question answers in JSON when asked to.
                if spec.isQuery && !typed.contains("--json") { kinds.append(.words(["--json"])) }
                if let last = spec.completion.last, case .options(let options) = last, index >= spec.completion.count - 1 {
                    // Options come in any order after the others, each with a value not completed.
                    if !options.contains(earlier.last ?? "") { kinds.append(.options(options)) }
                } else if index < spec.completion.count {
                    kinds.append(spec.completion[index])
                }
            }
            // Subcommand words (`tap pause`, `bounce cancel`) where the longest match so far ends.
            for spec in CommandTable.all where spec.words.count == position + 1
                && Array(spec.words.prefix(position)) == typed.prefix(position).map({ $0 }) {
                words.append(spec.words[position])
            }
        }
    }

    /// The names of one kind of argument.
    private static func names(for kind: CommandSpec.CompletionKind, earlier: [String],
                              source: CompletionSource) -> [String] {
        switch kind {
        case .plugin: return source.nodes.filter(\.isPlugin).map(\.name)
        case .node: return source.nodes.map(\.name)
        case .parameter: return source.node(named: earlier[earlier.count - 1])?.parameters.map(\.symbol) ?? []
        case .value:
            guard earlier.count >= 2 else { return [] }
            return source.node(named: earlier[earlier.count - 2])?.parameters
                .first { $0.symbol == earlier[earlier.count - 1] }?.values ?? []
        case .scene: return source.scenes
        case .patch: return source.patches
        case .words(let words), .options(let words): return words
        case .presetLabel, .file, .none: return []
        }
    }

    /// A path: the folder part as typed, the name completed from that
    /// folder's entries; or one of `words` (`bounce cancel`).
    private static func files(_ current: Word, cursor: Int, folders: FolderLister,
                              besides words: [String]) -> ConsoleCompletion {
        let typed = current.text
        let folder = typed.lastIndex(of: "/").map { String(typed[...$0]) } ?? ""
        let name = String(typed.dropFirst(folder.count))
        let entries = folders(folder.isEmpty ? "." : folder)
            .filter { $0.name.hasPrefix(name) && (name.hasPrefix(".") || !$0.name.hasPrefix(".")) }
            .sorted { $0.name < $1.name }
        let fitting = words.filter { $0.hasPrefix(typed) }
        let names = fitting + entries.map { folder + $0.name + ($0.isFolder ? "/" : "") }
        var completion = finish(range: current.start..<cursor, typed: typed, names: names, quoted: current.quoted,
                                quoteSpaces: true)
        completion.listed = fitting + entries.map { $0.name + ($0.isFolder ? "/" : "") }
        return completion
    }

    private static func finish(range: Range<Int>, typed: String, names: [String], quoted: Bool,
                               quoteSpaces: Bool) -> ConsoleCompletion {
        guard let first = names.first else { return ConsoleCompletion(range: range, candidates: [], replacement: nil) }
        let shared = names.dropFirst().reduce(first) { String($0.commonPrefix(with: $1)) }
        let unique = names.count == 1
        guard unique || shared.count > typed.count else {
            return ConsoleCompletion(range: range, candidates: names, replacement: nil)
        }
        // A name with a space goes in quotes (the console's words are split at spaces); a folder stays open.
        let quote = quoteSpaces && (quoted || shared.contains { $0.isWhitespace })
        let closes = unique && !shared.hasSuffix("/")
        let text = (quote ? "\"" : "") + shared + (closes ? (quote ? "\" " : " ") : "")
        return ConsoleCompletion(range: range, candidates: names, replacement: text)
    }

    /// The real file system, relative to the working folder as the commands read paths.
    static func listFolder(_ path: String) -> [(name: String, isFolder: Bool)] {
        let manager = FileManager.default
        guard let names = try? manager.contentsOfDirectory(atPath: path) else { return [] }
        return names.map { name in
            var isFolder: ObjCBool = false
            _ = manager.fileExists(atPath: (path as NSString).appendingPathComponent(name), isDirectory: &isFolder)
            return (name, isFolder.boolValue)
        }
    }

    /// A word of the line as `ConsoleWords` splits it: where it starts
    /// (its quote included), its text without quotes, and whether a quote opened it.
    struct Word {
        var start: Int
        var text = ""
        var quoted = false

        /// The words of `line`; the last is the one being typed (empty after a space).
        static func split(_ line: ArraySlice<Character>) -> [Word] {
            var words: [Word] = []
            var current: Word?
            var inQuotes = false
            for (index, character) in zip(line.indices, line) {
                if character == "\"" {
                    if current == nil { current = Word(start: index, quoted: true) }
                    inQuotes.toggle()
                } else if character.isWhitespace && !inQuotes {
                    if let word = current { words.append(word) }
                    current = nil
                } else {
                    if current == nil { current = Word(start: index) }
                    current!.text.append(character)
                }
            }
            words.append(current ?? Word(start: line.endIndex))
            return words
        }
    }
}
