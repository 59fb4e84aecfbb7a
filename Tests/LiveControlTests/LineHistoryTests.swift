@testable import LiveControl
import Foundation
import XCTest

final class LineHistoryTests: XCTestCase {
    func testBlankAndRepeatedLinesAreNotKept() {
        var history = LineHistory()
        for line in ["status", "status", "  ", "", "set amp gain -6", "status"] { history.add(line) }
        XCTAssertEqual(history.entries, ["status", "set amp gain -6", "status"])
    }

    func testItKeepsTheNewestLinesUpToItsLimit() {
        var history = LineHistory((1...4).map { "line \($0)" }, limit: 3)
        XCTAssertEqual(history.entries, ["line 2", "line 3", "line 4"])
        history.add("line 5")
        XCTAssertEqual(history.entries, ["line 3", "line 4", "line 5"])
    }

    func testTheFileFollowsXDGStateHomeElseHome() {
        XCTAssertEqual(LineHistory.file(environment: ["XDG_STATE_HOME": "/state", "HOME": "/home/me"])?.path,
                       "/state/fxhost/history")
        XCTAssertEqual(LineHistory.file(environment: ["HOME": "/home/me"])?.path, "/home/me/.local/state/fxhost/history")
        XCTAssertEqual(LineHistory.file(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/me"])?.path,
                       "/home/me/.local/state/fxhost/history", "the XDG spec ignores a relative path")
        XCTAssertNil(LineHistory.file(environment: [:]))
    }

    func testSavedThenLoadedInAFolderItMakes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fxhost-history-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("state/fxhost/history")
        LineHistory(["set amp gain -6", "tap amp \"take one.wav\""]).save(to: file)
        XCTAssertEqual(LineHistory.load(from: file).entries, ["set amp gain -6", "tap amp \"take one.wav\""])
        XCTAssertEqual(LineHistory.load(from: file, limit: 1).entries, ["tap amp \"take one.wav\""])
    }

    func testAnUnreadableOrUnwritableFileIsNoError() throws {
        XCTAssertEqual(LineHistory.load(from: URL(fileURLWithPath: "/nonexistent/fxhost/history")).entries, [])
        LineHistory(["status"]).save(to: URL(fileURLWithPath: "/proc/fxhost/history"))  // cannot be written: ignored
        LineHistory(["status"]).save(to: nil)
    }
}
