import Foundation
import XCTest

/// Keeps docs/architecture.md true to the code. The map drifts as the code
/// moves; these checks catch a folder that was renamed or a type that was
/// removed while the map still names it.
final class ArchitectureMapTests: XCTestCase {
    /// The package's root: this file is Tests/IntegrationTests/ArchitectureMapTests.swift.
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    private func mapText() throws -> String {
        let map = Self.packageRoot.appendingPathComponent("docs/architecture.md")
        return try String(contentsOf: map, encoding: .utf8)
    }

    func testMapIsShortEnoughToRead() throws {
        let checker = ArchitectureMapChecker(root: Self.packageRoot)
        XCTAssertEqual(checker.lengthProblems(in: try mapText()), [])
    }

    func testEveryCitedPathAndTypeExists() throws {
        let checker = ArchitectureMapChecker(root: Self.packageRoot)
        XCTAssertEqual(checker.citationProblems(in: try mapText()), [])
    }

    /// The checker must be able to fail: made-up names are reported, real ones are not.
    func testCheckerReportsWhatDoesNotExist() {
        let checker = ArchitectureMapChecker(root: Self.packageRoot)
        let madeUp = """
            The widgets live in `Sources/Nowhere/` and are made by `NoSuchTypeAnywhere.make`.
            The graph is `AudioGraph`, in `Sources/HostCore/`.

            ```
            `Sources/InsideAFence/` is not a citation: fenced blocks are drawings.
            ```
            """
        let problems = checker.citationProblems(in: madeUp)
        XCTAssertEqual(problems.count, 2, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("`Sources/Nowhere/`") }, "\(problems)")
        XCTAssertTrue(problems.contains { $0.contains("`NoSuchTypeAnywhere`") }, "\(problems)")

        let tooLong = String(repeating: "line\n", count: 351) + String(repeating: "x", count: 301) + "\n"
        XCTAssertEqual(checker.lengthProblems(in: tooLong).count, 2)
    }
}

/// Reads markdown and reports what it cites that the package does not have.
/// A citation is an inline code span: a path under one of the package's
/// top-level folders, or a name shaped like a Swift type (`Name` or
/// `Name.member`, of which only `Name` is checked).
struct ArchitectureMapChecker {
    let root: URL
    var maximumLines = 350
    var maximumLineLength = 300

    static let pathPrefixes = ["Sources/", "Tests/", "docs/", "scripts/", "bench/", "Presets/"]

    func lengthProblems(in markdown: String) -> [String] {
        var lines = markdown.components(separatedBy: "\n")
        if lines.last == "" { lines.removeLast() }  // a final newline ends the last line; it starts none
        var problems: [String] = []
        if lines.count > maximumLines {
            problems.append("\(lines.count) lines, more than \(maximumLines)")
        }
        for (index, line) in lines.enumerated() where line.count > maximumLineLength {
            problems.append("line \(index + 1) has \(line.count) characters, more than \(maximumLineLength)")
        }
        return problems
    }

    func citationProblems(in markdown: String) -> [String] {
        let declared = declaredTypeNames()
        var problems: [String] = []
        var reported = Set<String>()
        for span in codeSpans(in: markdown) where !reported.contains(span) {
            if let path = Self.citedPath(span) {
                if !FileManager.default.fileExists(atPath: root.appendingPathComponent(path).path) {
                    problems.append("`\(span)` is cited but does not exist")
                    reported.insert(span)
                }
            } else if let name = Self.citedTypeName(span), !declared.contains(name) {
                problems.append("`\(name)` is cited but no class, struct, enum, protocol, actor or typealias declares it")
                reported.insert(span)
            }
        }
        return problems
    }

    /// The path a span cites, without a trailing slash; nil if it cites none.
    static func citedPath(_ span: String) -> String? {
        guard pathPrefixes.contains(where: { span.hasPrefix($0) }) else { return nil }
        var path = span
        while path.hasSuffix("/") { path.removeLast() }
        return path
    }

    /// `Name` for a span `Name` or `Name.member`; nil for anything else.
    static func citedTypeName(_ span: String) -> String? {
        let name = span.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? span
        guard name.range(of: "^[A-Z][A-Za-z0-9]+$", options: .regularExpression) != nil else { return nil }
        if name.count < span.count {
            // Only `Name.member` counts: a member is an identifier, not a file extension's dot in prose.
            let member = span.dropFirst(name.count + 1)
            guard member.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil else { return nil }
        }
        return name
    }

    /// Inline code spans outside fenced blocks (fences hold drawings and examples, not citations).
    func codeSpans(in markdown: String) -> [String] {
        var spans: [String] = []
        var inFence = false
        for line in markdown.components(separatedBy: "\n") {
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("```") {
                inFence.toggle()
                continue
            }
            if inFence { continue }
            let parts = line.components(separatedBy: "`")
            // Odd-numbered parts sit between a pair of backticks; an unpaired last one is no span.
            var index = 1
            while index < parts.count - 1 {
                spans.append(parts[index])
                index += 2
            }
        }
        return spans
    }

    /// Every type name declared in a Swift file under Sources/ or Tests/.
    func declaredTypeNames() -> Set<String> {
        // Attributes and modifiers may come first (`@usableFromInline package final class`);
        // generic brackets and conformances may follow the name.
        let pattern = #"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|package|internal|fileprivate|private|open|final|indirect|nonisolated)\s+)*"#
            + #"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Z][A-Za-z0-9_]*)"#
        guard let declaration = try? NSRegularExpression(pattern: pattern, options: [.anchorsMatchLines]) else { return [] }
        var names = Set<String>()
        for folder in ["Sources", "Tests"] {
            let base = root.appendingPathComponent(folder)
            guard let files = FileManager.default.enumerator(at: base, includingPropertiesForKeys: nil) else { continue }
            for case let file as URL in files where file.pathExtension == "swift" {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                let range = NSRange(text.startIndex..., in: text)
                for match in declaration.matches(in: text, range: range) {
                    if let name = Range(match.range(at: 1), in: text) { names.insert(String(text[name])) }
                }
            }
        }
        return names
    }
}
