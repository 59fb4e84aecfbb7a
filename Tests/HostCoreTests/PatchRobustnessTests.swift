import XCTest
@testable import HostCore

/// Whatever the text, the parser returns a patch or a located `GraphError`; it never crashes.
final class PatchRobustnessTests: XCTestCase {

    func testMutatedExamplesFailCleanly() {
        var random = SplitMix64(seed: 20261122)
        let alphabet = Array(" \n\t:-[]{},#&*!|>'\"?%@`~0123456789abcxyz->dB".unicodeScalars)
        for example in [PatchParserTests.liveExample, PatchParserTests.bounceExample] {
            let original = Array(example.unicodeScalars)
            for _ in 0..<600 {
                var scalars = original
                for _ in 0..<Int.random(in: 1...4, using: &random) {
                    let position = Int.random(in: 0..<scalars.count, using: &random)
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: scalars[position] = alphabet.randomElement(using: &random)!
                    case 1: scalars.insert(alphabet.randomElement(using: &random)!, at: position)
                    default: scalars.remove(at: position)
                    }
                }
                let text = String(String.UnicodeScalarView(scalars))
                do {
                    _ = try PatchParser.parse(text: text, path: "p.yaml")
                } catch {
                    // Every error points inside the text (or just past its end).
                    guard let location = error.location else { return XCTFail("no location for: \(error)\n\(text)") }
                    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
                    XCTAssertTrue((1...lines.count + 1).contains(location.line), "\(error)\n\(text)")
                    XCTAssertGreaterThanOrEqual(location.column, 1, "\(error)\n\(text)")
                }
            }
        }
    }

    func testLargeValidPatch() throws {
        // 10 000 gain stages in one chain: big, but legal and under 1 MiB.
        let count = 10_000
        var text = "fxhost: 1\nnodes:\n"
        for index in 0..<count { text += "  g\(index): { gain: 0 }\n" }
        text += "chain: [" + (0..<count).map { "g\($0)" }.joined(separator: ", ") + "]\n"
        let patch = try PatchParser.parse(text: text, path: "p.yaml")
        XCTAssertEqual(patch.nodes.count, count)
        XCTAssertEqual(patch.connections.count, count - 1)
        XCTAssertEqual(patch.connections.last.map(arrow), "g\(count - 2) -> g\(count - 1)")
    }

    func testLargeCyclicPatchNamesTheFirstClosingConnection() throws {
        // A long chain, then a connection back to its start: the cycle is the whole chain.
        let count = 2_000
        var text = "fxhost: 1\nnodes:\n"
        for index in 0..<count { text += "  g\(index): { gain: 0 }\n" }
        text += "chain: [" + (0..<count).map { "g\($0)" }.joined(separator: ", ") + "]\n"
        text += "connect:\n  - g\(count - 1) -> g0\n"
        let message = patchFailure(text)
        let cycle = (0..<count).map { "g\($0)" }.joined(separator: " -> ") + " -> g0"
        // Lines: fxhost, nodes, `count` node lines, chain, connect, then the closing one.
        XCTAssertEqual(message, "p.yaml:\(count + 5):5: cycle: \(cycle)")
    }
}
