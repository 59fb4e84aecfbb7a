@testable import LiveControl
import XCTest

/// What Tab gives for the word at the cursor, from names this test lists
/// (a patch with a drive, an amp, a reverb and two outputs).
final class ConsoleCompletionTests: XCTestCase {
    private let names = CompletionSource(
        commands: ConsoleCommand.names,
        nodes: [
            .init(name: "guitar", isPlugin: false),
            .init(name: "drive", isPlugin: true,
                  parameters: [.init(symbol: "drive"), .init(symbol: "muffle"), .init(symbol: "mode", values: ["soft", "hard"])],
                  presets: ["Bass boost", "Bass cut", "Crunch"]),
            .init(name: "amp", isPlugin: true, parameters: [.init(symbol: "gain"), .init(symbol: "enabled", values: ["true", "false"])]),
            .init(name: "main", isPlugin: false),
            .init(name: "monitor", isPlugin: false),
        ],
        scenes: ["lead", "rhythm", "lead-solo"],
        patches: ["verse", "solo", "chorus"])

    private let folders: ConsoleCompletion.FolderLister = { path in
        switch path {
        case ".": return [("takes", true), ("take one.wav", false), ("mix.wav", false), (".hidden", false)]
        case "takes/": return [("drive.flac", false), ("drive-2.flac", false), ("amp.wav", false)]
        default: return []
        }
    }

    /// The line after Tab, the cursor at `|` (or the end).
    private func tab(_ line: String) -> (line: String, candidates: [String]) {
        var characters = Array(line)
        let cursor = characters.firstIndex(of: "|") ?? characters.count
        if cursor < characters.count { characters.remove(at: cursor) }
        let completion = ConsoleCompletion.complete(characters, cursor: cursor, source: names, folders: folders)
        if let replacement = completion.replacement { characters.replaceSubrange(completion.range, with: replacement) }
        return (String(characters), completion.candidates)
    }

    func testCommandWords() {
        XCTAssertEqual(tab("se").line, "set ")
        XCTAssertEqual(tab("sc").line, "scene ", "MIDI's `scene` too")
        XCTAssertEqual(tab("b").candidates, ["bounce", "bypass"])
        XCTAssertEqual(tab("b").line, "b", "nothing shared beyond `b`")
        XCTAssertEqual(tab("").candidates.count, names.commands.count)
        XCTAssertEqual(tab("d").line, "disconnect ")
        XCTAssertEqual(tab("xyz").candidates, [])
    }

    func testNodesWhereANodeGoes() {
        XCTAssertEqual(tab("set d").line, "set drive ")
        XCTAssertEqual(tab("set ").candidates, ["amp", "drive"], "set, bypass and preset take plugin nodes only")
        XCTAssertEqual(tab("preset ").candidates, ["amp", "drive", "save"])
        XCTAssertEqual(tab("preset save d").line, "preset save drive ")
        XCTAssertEqual(tab("preset save drive B").candidates, [], "a new preset's name is the user's")
        XCTAssertEqual(tab("learn drive mu").line, "learn drive muffle ")
        XCTAssertEqual(tab("bypass a").line, "bypass amp ")
        XCTAssertEqual(tab("connect g").line, "connect guitar ")
        XCTAssertEqual(tab("connect guitar m").line, "connect guitar m", "main and monitor share only `m`")
        XCTAssertEqual(tab("connect guitar m").candidates, ["main", "monitor"])
        XCTAssertEqual(tab("disconnect drive ma").line, "disconnect drive main ")
        XCTAssertEqual(tab("untap mo").line, "untap monitor ")
    }

    func testParametersAndTheirWords() {
        XCTAssertEqual(tab("set drive m").candidates, ["mode", "muffle"])
        XCTAssertEqual(tab("set drive mu").line, "set drive muffle ")
        XCTAssertEqual(tab("set amp g").line, "set amp gain ")
        XCTAssertEqual(tab("set drive mode h").line, "set drive mode hard ")
        XCTAssertEqual(tab("set amp enabled f").line, "set amp enabled false ")
        XCTAssertEqual(tab("set nosuch g").candidates, [], "an unknown node has no parameters")
    }

    func testCompletingInTheMiddleOfTheLineKeepsTheRest() {
        XCTAssertEqual(tab("set dr| 0.5").line, "set drive  0.5")
    }

    func testOnOffAndFixedWords() {
        XCTAssertEqual(tab("bypass drive o").candidates, ["off", "on"])
        XCTAssertEqual(tab("bypass drive of").line, "bypass drive off ")
        XCTAssertEqual(tab("status --").line, "status --json ")
        XCTAssertEqual(tab("tap p").line, "tap pause ")
        XCTAssertEqual(tab("tap resume d").line, "tap resume drive ")
        XCTAssertEqual(tab("bounce c").line, "bounce cancel ")
        XCTAssertEqual(tab("bounce mix.wav --fr").line, "bounce mix.wav --from ")  // `--f`: --from or --force
        XCTAssertEqual(tab("bounce mix.wav --fo").line, "bounce mix.wav --force ")
        XCTAssertEqual(tab("bounce mix.wav --from ").candidates, [], "a time goes there")
    }

    func testPresetLabelsWithSpaces() {
        XCTAssertEqual(tab("preset drive C").line, "preset drive Crunch ")
        XCTAssertEqual(tab("preset drive B").line, "preset drive Bass ", "the shared prefix, up to where they differ")
        XCTAssertEqual(tab("preset drive Bass b").line, "preset drive Bass boost ")
        XCTAssertEqual(tab("preset drive Bass ").candidates, ["Bass boost", "Bass cut"])
    }

    func testScenes() {
        XCTAssertEqual(tab("scene r").line, "scene rhythm ")
        XCTAssertEqual(tab("scene le").line, "scene lead", "`lead` and `lead-solo`: the shared part, no space")
        XCTAssertEqual(tab("scene le").candidates, ["lead", "lead-solo"])
    }

    /// A setlist run's patches, by name, after `load`.
    func testSetlistPatches() {
        XCTAssertEqual(tab("load s").line, "load solo ")
        XCTAssertEqual(tab("load ").candidates, ["chorus", "solo", "verse"], "sorted, as every list Tab shows")
    }

    func testFilePaths() {
        XCTAssertEqual(tab("tap drive t").candidates, ["take one.wav", "takes/"])
        XCTAssertEqual(tab("tap drive takes").line, "tap drive takes/", "a folder stays open")
        XCTAssertEqual(tab("tap drive takes/d").line, "tap drive takes/drive")
        XCTAssertEqual(tab("tap drive takes/a").line, "tap drive takes/amp.wav ")
        XCTAssertEqual(tab("bounce m").line, "bounce mix.wav ")
        XCTAssertEqual(tab("save takes/").candidates, ["takes/amp.wav", "takes/drive-2.flac", "takes/drive.flac"])
        XCTAssertEqual(tab("tap drive take ").line, "tap drive take ", "a third word takes nothing")
        XCTAssertEqual(tab("tap drive .").line, "tap drive .hidden ", "hidden files only when asked for")
        XCTAssertFalse(tab("tap drive ").candidates.contains(".hidden"))
        let completion = ConsoleCompletion.complete(Array("tap drive takes/dr"), cursor: 18, source: names, folders: folders)
        XCTAssertEqual(completion.listed, ["drive-2.flac", "drive.flac"], "a list shows names, not paths")
    }

    func testNamesWithSpacesGoInQuotes() {
        XCTAssertEqual(tab("tap drive take ").line, "tap drive take ")
        XCTAssertEqual(tab("tap drive take\u{20}").candidates, [])
        XCTAssertEqual(tab("tap drive \"take").line, "tap drive \"take", "`take one.wav` and `takes/` share `take`")
        XCTAssertEqual(tab("tap drive \"take ").line, "tap drive \"take one.wav\" ")
        XCTAssertEqual(tab("bounce mix.wav").line, "bounce mix.wav ")
        let words = try? ConsoleWords.split(tab("tap drive \"take ").line)
        XCTAssertEqual(words, ["tap", "drive", "take one.wav"], "the console reads it back as one word")
    }
}
