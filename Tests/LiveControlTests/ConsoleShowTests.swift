import Foundation
@testable import LiveControl
import XCTest

/// `show NODE` as the console prints it, from a `state` in the protocol's
/// JSON (docs/control.md's form, as a client would send it back).
final class ConsoleShowTests: XCTestCase {
    private func state(_ node: String) throws -> SessionState {
        try JSONDecoder().decode(SessionState.self, from: Data("""
            {"nodes": [\(node)], "connections": [], "taps": [], "scenes": [], "mappings": [],
             "tempo": {"beatsPerMinute": 120, "beatsPerBar": 4, "beatUnit": 4, "rolling": false, "source": "fxhost"}}
            """.utf8))
    }

    /// A message parameter the plugin takes is listed before it is set, as
    /// the web page lists it, and with its value once set; a property the
    /// plugin reported that it does not take is listed too.
    func testShowListsMessageParametersSetOrNot() throws {
        let unset = try state("""
            {"name": "conv", "kind": "plugin", "pluginName": "Convolver", "properties": {},
             "messageParameters": [{"name": "ir", "kind": "path", "value": null}]}
            """)
        XCTAssertTrue(ConsoleShow.lines(unset, oneNode: true).contains("  ir = (not set; a path)"),
                      "\(ConsoleShow.lines(unset, oneNode: true))")
        let set = try state("""
            {"name": "conv", "kind": "plugin", "pluginName": "Convolver", "properties": {"ir": "/ir/hall.wav", "gain": "0.5"},
             "messageParameters": [{"name": "ir", "kind": "path", "value": "/ir/hall.wav"}]}
            """)
        let lines = ConsoleShow.lines(set, oneNode: true)
        XCTAssertEqual(lines.filter { $0.hasPrefix("  ir = ") }, ["  ir = /ir/hall.wav"], "listed once: \(lines)")
        XCTAssertTrue(lines.contains("  gain = 0.5"), "\(lines)")
    }
}
