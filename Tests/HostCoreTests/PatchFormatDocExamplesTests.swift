import XCTest
@testable import HostCore

/// Keeps docs/patch-format.md honest: the examples are read out of the
/// document itself, so the two cannot drift apart.
///
/// - A block fenced ` ```yaml ` must parse with `PatchParser.parse`.
/// - A block fenced ` ```yaml expect-error ` must fail, and the ` ```text `
///   block right after it holds the exact message (the patch is named `p.yaml`).
///
/// Other blocks (` ```text `, ` ```sh `) are not checked.
final class PatchFormatDocExamplesTests: XCTestCase {
    struct Block {
        var info: String
        var text: String
        /// 1-based line of the opening fence in the document.
        var line: Int
    }

    static let documentPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // HostCoreTests
        .deletingLastPathComponent()  // Tests
        .deletingLastPathComponent()  // package root
        .appendingPathComponent("docs/patch-format.md").path

    /// Fenced code blocks whose fences start at the beginning of a line.
    static func blocks(in markdown: String) -> [Block] {
        var blocks: [Block] = []
        var open: Block?
        for (index, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if var block = open {
                if line == "```" {
                    blocks.append(block)
                    open = nil
                } else {
                    block.text += line + "\n"
                    open = block
                }
            } else if line.hasPrefix("```") {
                open = Block(info: line.dropFirst(3).trimmingCharacters(in: .whitespaces), text: "", line: index + 1)
            }
        }
        return blocks
    }

    private func documentBlocks() throws -> [Block] {
        let markdown = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        let blocks = Self.blocks(in: markdown)
        XCTAssertFalse(blocks.isEmpty, "no code blocks found in \(Self.documentPath)")
        return blocks
    }

    /// A block fenced ` ```yaml setlist ` is a setlist: it must parse with `SetlistParser.parse`.
    func testEverySetlistExampleParses() throws {
        let examples = try documentBlocks().filter { $0.info == "yaml setlist" }
        XCTAssertGreaterThanOrEqual(examples.count, 1)
        for example in examples {
            XCTAssertNoThrow(try SetlistParser.parse(text: example.text, path: "/show/s.yaml"), "line \(example.line)")
        }
    }

    func testEveryYAMLExampleParses() throws {
        let examples = try documentBlocks().filter { $0.info == "yaml" }
        // The reference shows each node kind and three worked examples; a broken extractor finds far fewer.
        XCTAssertGreaterThanOrEqual(examples.count, 10)
        for example in examples {
            do {
                _ = try PatchParser.parse(text: example.text, path: "p.yaml")
            } catch {
                XCTFail("patch-format.md line \(example.line): the example does not parse: \(error)\n\(example.text)")
            }
        }
    }

    func testEveryErrorExampleGivesTheDocumentedMessage() throws {
        let blocks = try documentBlocks()
        var checked = 0
        for (index, block) in blocks.enumerated() where block.info == "yaml expect-error" {
            guard index + 1 < blocks.count, blocks[index + 1].info == "text" else {
                XCTFail("patch-format.md line \(block.line): an `expect-error` example must be followed by a ```text block with the message")
                continue
            }
            let expected = blocks[index + 1].text.trimmingCharacters(in: .whitespacesAndNewlines)
            XCTAssertEqual(patchFailure(block.text), expected, "patch-format.md line \(block.line)")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 5)
    }

    func testFenceExtraction() {
        let markdown = "text\n```yaml\na: 1\n```\n\n```yaml expect-error\nb\n```\n```text\nmessage\n```\n"
        let blocks = Self.blocks(in: markdown)
        XCTAssertEqual(blocks.map(\.info), ["yaml", "yaml expect-error", "text"])
        XCTAssertEqual(blocks.map(\.text), ["a: 1\n", "b\n", "message\n"])
        XCTAssertEqual(blocks.map(\.line), [2, 6, 9])
    }
}
