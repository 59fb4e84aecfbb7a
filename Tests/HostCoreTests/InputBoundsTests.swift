import XCTest
@testable import HostCore

/// Gains above +40 dB are refused wherever they are written — a file's
/// `gain:`, a gain node, a connection's `gain:`, the library's API — with the
/// bound named, at the value's place in a patch.
final class InputBoundsTests: XCTestCase {
    func testTheBoundsAndTheirSentences() {
        XCTAssertNil(InputBounds.gainRefusal(40))
        XCTAssertNil(InputBounds.gainRefusal(-1000))
        XCTAssertEqual(InputBounds.gainRefusal(1000), "a gain is at most +40 dB, not +1000 dB")
        XCTAssertEqual(InputBounds.gainRefusal(1e308), "a gain is at most +40 dB, not +1e+308 dB")
        XCTAssertEqual(InputBounds.gainRefusal(.nan), "a gain is a finite number of dB, at most +40 dB, not nan dB")
        XCTAssertEqual(InputBounds.gainRefusal(-.infinity), "a gain is a finite number of dB, at most +40 dB, not -inf dB")
        XCTAssertNil(InputBounds.tempoRefusal(20))
        XCTAssertNil(InputBounds.tempoRefusal(300))
        XCTAssertEqual(InputBounds.tempoRefusal(19.5), "a tempo is 20 to 300 beats per minute, not 19.5")
        XCTAssertEqual(InputBounds.tempoRefusal(.infinity), "a tempo is 20 to 300 beats per minute, not inf")
    }

    func testAPatchRefusesGainsAboveTheBoundAtTheirPlace() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              src: { file: d.wav, gain: +1000dB }
            """), "p.yaml:3:29: a gain is at most +40 dB, not +1000 dB")
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              boost: { gain: 40.01dB }
            """), "p.yaml:3:18: a gain is at most +40 dB, not +40.01 dB")
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              src: { file: d.wav }
              out: { output: 1 }
            connect:
              - { from: src, to: out, gain: 1e308dB }
            """), "p.yaml:6:33: a gain is at most +40 dB, not +1e+308 dB")
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              src: { file: d.wav, gain: 40dB }
              out: { output: 1 }
            connect:
              - { from: src, to: out, gain: +40 dB }
            """), "(parsed without error)")
    }

    func testTheLibraryRefusesGainsAboveTheBound() throws {
        let graph = AudioGraph()
        let file = FilePlayerSource(path: "d.wav", channels: 1, sampleRate: 48_000, frames: 10, gainDecibels: 41)
        XCTAssertThrowsError(try graph.addFilePlayer("src", file: file)) {
            XCTAssertEqual("\($0)", "a gain is at most +40 dB, not +41 dB")
        }
        XCTAssertThrowsError(try graph.addGain("boost", decibels: 100)) {
            XCTAssertEqual("\($0)", "a gain is at most +40 dB, not +100 dB")
        }
        let input = try graph.addInput("in", channels: 1)
        let output = try graph.addOutput("out", channels: 1)
        XCTAssertThrowsError(try graph.connect(input, to: output, gainDecibels: 1e308)) {
            XCTAssertEqual("\($0)", "a gain is at most +40 dB, not +1e+308 dB")
        }
        XCTAssertEqual(graph.connections.count, 0)
    }
}
