import Foundation

/// Scratch folders for tests: one per test, emptied when made, under the
/// system's temporary folder and this process's id.
public enum TestFolders {
    public static func make(_ name: String, prefix: String) throws -> URL {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(prefix)-\(getpid())")
            .appendingPathComponent(name.filter { $0.isLetter || $0.isNumber })
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }
}

/// Polls `condition` every 10 ms; false when `seconds` pass first.
public func eventually(within seconds: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() >= deadline { return false }
        usleep(10_000)
    }
    return true
}
