import XCTest
@testable import HostCore

/// The same two ports connected twice would be summed, a silent +6 dB: the
/// second is refused, naming the line of the first.
final class RepeatedConnectionTests: XCTestCase {
    func testAPatchRefusesTheSecondAtItsPlace() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              src: { file: d.wav }
              bus: { mix: 1 }
              out: { output: 1 }
            connect:
              - src -> bus
              - src -> out
              - bus -> out
              - { from: src, to: out, gain: -6dB }
            """), "p.yaml:10:5: `src -> out` is already connected on line 8")
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              src: { file: d.wav }
              out: { output: 2 }
            chain: [src, out]
            connect:
              - src -> out
            """), "p.yaml:7:5: `src -> out` is already connected on line 5")
        // Other ports of the same nodes are other connections.
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              src: { file: d.wav }
              out: { output: 2 }
            connect:
              - src:1 -> out:1
              - src:1 -> out:2
              - src -> out
            """), "(parsed without error)")
    }

    func testTheLibraryRefusesTheSecond() throws {
        let graph = AudioGraph()
        let input = try graph.addInput("in", channels: 2)
        let output = try graph.addOutput("out", channels: 2)
        try graph.connect(input, .channel(1), to: output, .channel(1))
        try graph.connect(input, to: output, location: SourceLocation(file: "p.yaml", line: 3, column: 5))
        XCTAssertThrowsError(try graph.connect(input, .channel(1), to: output, .channel(1), gainDecibels: -6)) {
            XCTAssertEqual("\($0)", "`in:1 -> out:1` is already connected")
        }
        XCTAssertThrowsError(try graph.connect(input, to: output, location: SourceLocation(file: "p.yaml", line: 9, column: 5))) {
            XCTAssertEqual("\($0)", "p.yaml:9:5: `in -> out` is already connected on line 3")
        }
        XCTAssertEqual(graph.connections.count, 2)
    }
}
