import LiveControl
import Foundation
import Glibc

/// The files of a batch render and where each one's outputs go, checked
/// before anything renders.
///
/// The rule that keeps every other `render` as it was: a render is a batch
/// exactly when an `-o` value holds a placeholder ({name}, {dir}, {n}).
/// Then every `-i` value is a file or a glob pattern (`*`, `?`, `[…]`),
/// each file they name is rendered on its own into the same live input,
/// and each output path comes from the templates. Without a placeholder,
/// `-i` means what it always did (one file per live input).
struct BatchPlan {
    /// One file of the batch: it renders as `fxhost render PATCH -i [NODE=]INPUT -o OUTPUT...` would.
    struct Item: Codable {
        /// From 1, in path order.
        var number: Int
        var input: String
        /// The live input it feeds (`-i NODE=PATTERN`), or nil for the first.
        var node: String?
        var outputs: [FileAssignment]
    }

    var items: [Item]

    /// The batch the arguments describe, or nil for a single render. Throws
    /// one sentence for a pattern that matches nothing, two files sent to one
    /// output, an output over an input or into a missing folder.
    static func make(inputs: [String], outputs: [String]) throws -> BatchPlan? {
        guard outputs.contains(where: { OutputTemplate.isTemplate(FileAssignment($0).path) }) else {
            try refuseUnexpandedPatterns(inputs)
            return nil
        }
        let assignments = inputs.map(FileAssignment.init)
        guard let first = assignments.first else {
            throw CommandLineError("an output template renders each `-i` file on its own: give the files with -i, e.g. -i 'takes/*.wav'")
        }
        if let other = assignments.first(where: { $0.node != first.node }) {
            throw CommandLineError("in a batch every `-i` feeds the same live input, but `-i \(describe(first))` and `-i \(describe(other))` name two")
        }
        var files: [String] = []
        var seen = Set<String>()
        for assignment in assignments {
            for file in try matchingFiles(assignment.path) where seen.insert(fileKey(file)).inserted {
                files.append(file)
            }
        }
        files.sort()
        let templates = try outputs.map { argument in
            let assignment = FileAssignment(argument)
            return (node: assignment.node, argument: argument, template: try OutputTemplate(assignment.path))
        }
        let items = files.enumerated().map { index, input in
            Item(number: index + 1, input: input, node: first.node, outputs: templates.map { template in
                var output = FileAssignment(template.argument)
                output.path = template.template.expand(input: input, number: index + 1)
                return output
            })
        }
        try requireDistinctFiles(items, templates: templates.map(\.argument))
        return BatchPlan(items: items)
    }

    /// The files `pattern` names: itself if it exists, else the regular files its glob matches, sorted.
    private static func matchingFiles(_ pattern: String) throws -> [String] {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: pattern, isDirectory: &isFolder) {
            guard !isFolder.boolValue else {
                throw CommandLineError("`-i \(pattern)` is a folder; give its files with a pattern, e.g. -i '\(pattern)/*.wav'")
            }
            return [pattern]
        }
        let matches = glob(pattern)
        guard !matches.isEmpty else {
            throw CommandLineError(isPattern(pattern) ? "`-i '\(pattern)'` matches no file"
                : "`\(pattern)` does not exist (given with -i)")
        }
        return matches
    }

    /// Outside a batch, `-i` takes one file; a pattern that is no file but
    /// matches some gets told how to render them one by one.
    private static func refuseUnexpandedPatterns(_ inputs: [String]) throws {
        for input in inputs {
            let path = FileAssignment(input).path
            guard isPattern(path), !FileManager.default.fileExists(atPath: path) else { continue }
            let count = glob(path).count
            guard count > 0 else { continue }
            throw CommandLineError("`-i '\(input)'` matches \(count) file\(count == 1 ? "" : "s"); to render each on its own, name the outputs with a template, e.g. -o 'out/{name}.wav'")
        }
    }

    /// Every output path unique across the batch, none over an input of the
    /// batch, each in a folder that exists.
    private static func requireDistinctFiles(_ items: [Item], templates: [String]) throws {
        var inputs: [String: String] = [:]
        for item in items { inputs[fileKey(item.input)] = item.input }
        var written: [String: String] = [:]
        for item in items {
            for (output, template) in zip(item.outputs, templates) {
                let key = fileKey(output.path)
                if let input = inputs[key] {
                    throw CommandLineError("`-o '\(template)'` would write over `\(input)`, an input of this batch; write the outputs elsewhere")
                }
                if let earlier = written[key] {
                    throw CommandLineError("`-o '\(template)'` sends both `\(earlier)` and `\(item.input)` to `\(output.path)`; add {n} or {dir} to the template so each file gets its own output")
                }
                written[key] = item.input
                let folder = (output.path as NSString).deletingLastPathComponent
                var isFolder: ObjCBool = false
                if !folder.isEmpty, !(FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder) && isFolder.boolValue) {
                    throw CommandLineError("the folder `\(folder)` for `\(output.path)` does not exist; create it first (mkdir -p)")
                }
            }
        }
    }

    static func isPattern(_ path: String) -> Bool {
        path.contains { $0 == "*" || $0 == "?" || $0 == "[" }
    }

    /// Regular files matching a shell pattern, sorted; folders are left out.
    static func glob(_ pattern: String) -> [String] {
        var result = glob_t()
        defer { globfree(&result) }
        guard Glibc.glob(pattern, GLOB_MARK, nil, &result) == 0 else { return [] }
        return (0..<Int(result.gl_pathc)).compactMap { index in
            result.gl_pathv[index].map { String(cString: $0) }
        }.filter { !$0.hasSuffix("/") }.sorted()
    }

    /// One spelling per file, as `FileConflicts` compares them: `a.wav`,
    /// `./a.wav` and a symbolic link to it are the same file.
    private static func fileKey(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }

    private static func describe(_ assignment: FileAssignment) -> String {
        assignment.node.map { "\($0)=\(assignment.path)" } ?? assignment.path
    }
}
