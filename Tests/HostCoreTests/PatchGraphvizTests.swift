import XCTest
@testable import HostCore

final class PatchGraphvizTests: XCTestCase {
    private func bounceDot() throws -> String {
        PatchGraphviz.dot(try PatchParser.parse(text: PatchParserTests.bounceExample, path: "b.yaml"))
    }

    func testNodesEdgesAndGains() throws {
        let lines = Set(try bounceDot().split(separator: "\n").map(String.init))
        let expected = [
            #"  "drums" [label="drums\nfile: stems/drums.wav\n-3 dB", shape=invhouse];"#,
            #"  "vox" [label="vox\nfile: stems/vox.wav\nstart 1.5s", shape=invhouse];"#,
            #"  "verb" [label="verb\nhttp://drobilla.net/plugins/mda/Ambience", shape=box];"#,
            #"  "bus" [label="bus\nmix: 2 ch", shape=invtrapezium];"#,
            #"  "out" [label="out\noutput: system:playback_1, system:playback_2", shape=house];"#,
            #"  "drums" -> "bus";"#,
            #"  "vox" -> "bus";"#,
            #"  "vox" -> "verb" [label="-12 dB"];"#,
            #"  "verb" -> "bus";"#,
            #"  "bus" -> "out";"#,
        ]
        for line in expected { XCTAssertTrue(lines.contains(line), "missing: \(line)") }
        // One line per node and per connection, plus the four header lines and the closing brace.
        XCTAssertEqual(lines.count, 5 + 5 + 4 + 1)
    }

    func testTapsAndPortSelectors() throws {
        let patch = try PatchParser.parse(text: """
            fxhost: 1
            name: "my \\"patch\\""
            nodes:
              in: { input: 2 }
              eq: { plugin: fil4, bypass: true }
              out: { output: 2 }
            connect:
              - in:2 -> eq:in_l
              - eq -> out
            taps:
              - { at: eq, file: takes/eq.flac }
              - { at: in:1, file: raw.wav }
            """, path: "p.yaml")
        let dot = PatchGraphviz.dot(patch)
        XCTAssertTrue(dot.hasPrefix(#"digraph "my \"patch\"" {"#), dot)
        XCTAssertTrue(dot.contains(#"  "eq" [label="eq\nfil4\n(bypassed)", shape=box];"#), dot)
        XCTAssertTrue(dot.contains(#"  "in" -> "eq" [label="from ch 2\nto in_l"];"#), dot)
        XCTAssertTrue(dot.contains(#"  "tap 1" [label="takes/eq.flac", shape=note];"#), dot)
        XCTAssertTrue(dot.contains(#"  "eq" -> "tap 1" [style=dashed];"#), dot)
        XCTAssertTrue(dot.contains(#"  "in" -> "tap 2" [label="from ch 1", style=dashed];"#), dot)
        XCTAssertTrue(dot.hasSuffix("}\n"))
    }

    /// Graphviz itself must accept the output. A missing `dot` is a
    /// failure, not a skip: `make test` installs graphviz with the other
    /// test dependencies.
    func testGraphvizAcceptsTheOutput() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/dot") else {
            return XCTFail("graphviz (/usr/bin/dot) is not installed; scripts/install-deps.sh installs it")
        }
        for text in [PatchParserTests.liveExample, PatchParserTests.bounceExample] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/dot")
            process.arguments = ["-Tsvg"]
            let input = Pipe(), output = Pipe(), errors = Pipe()
            process.standardInput = input
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            input.fileHandleForWriting.write(Data(PatchGraphviz.dot(try PatchParser.parse(text: text, path: "p.yaml")).utf8))
            try input.fileHandleForWriting.close()
            let svg = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            let complaints = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            XCTAssertEqual(process.terminationStatus, 0, complaints)
            XCTAssertEqual(complaints, "")
            XCTAssertTrue(svg.contains("<svg"))
            XCTAssertTrue(svg.contains("takes/drive.flac") || text == PatchParserTests.bounceExample)
        }
    }
}
