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
        let command = earlier.first?.lowercased()

        // A preset's label may have spaces: everything after the node is the label (as the parser reads it).
        if command == "preset", earlier.count >= 2, earlier[1].lowercased() != "save", let node = source.node(named: earlier[1]) {
            let start = words[2].start
            let typed = String(line[start..<cursor])
            let names = node.presets.filter { $0.hasPrefix(typed) }.sorted()
            return finish(range: start..<cursor, typed: typed, names: names, quoted: false, quoteSpaces: false)
        }
        if isFileArgument(command: command, earlier: earlier) {
            return files(current, cursor: cursor, folders: folders, besides: command == "bounce" ? ["cancel"] : [])
        }
        let names = Set(names(after: earlier, source: source)).filter { $0.hasPrefix(current.text) }.sorted()
        return finish(range: current.start..<cursor, typed: current.text, names: names, quoted: current.quoted,
                      quoteSpaces: true)
    }

    /// The names that fit after `earlier` (the words before the one being typed).
    private static func names(after earlier: [String], source: CompletionSource) -> [String] {
        guard let command = earlier.first?.lowercased() else { return source.commands }
        let plugins = source.nodes.filter(\.isPlugin).map(\.name), nodes = source.nodes.map(\.name)
        let node = earlier.count > 1 ? source.node(named: earlier[1]) : nil
        switch (command, earlier.count) {
        case ("set", 1), ("bypass", 1), ("learn", 1), ("unlearn", 1):
            return plugins
        case ("preset", 1):
            return ["save"] + plugins
        case ("preset", 2) where earlier[1].lowercased() == "save":
            return plugins
        case ("set", 2), ("learn", 2), ("unlearn", 2):
            return node?.parameters.map(\.symbol) ?? []
        case ("set", 3):
            return node?.parameters.first { $0.symbol == earlier[2] }?.values ?? []
        case ("bypass", 2):
            return ["on", "off"]
        case ("tap", 1):
            return ["pause", "resume"] + nodes
        case ("tap", 2), ("untap", 1), ("connect", 1), ("connect", 2), ("disconnect", 1), ("disconnect", 2):
            return nodes
        case ("bounce", _):
            return ["--from", "--to"].contains(earlier.last!) ? [] : ["--from", "--to"]
        case ("status", 1):
            return ["--json"]
        case ("scene", 1):
            return source.scenes
        default:
            return []
        }
    }

    private static func isFileArgument(command: String?, earlier: [String]) -> Bool {
        switch (command, earlier.count) {
        case ("tap", 2): return !["pause", "resume"].contains(earlier[1].lowercased())
        case ("bounce", 1), ("save", 1): return true
        default: return false
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
