import Foundation
import Glibc

/// The private folder a supervisor hands every engine it starts
/// (`--engine-state`), where each engine keeps its plugins' state
/// snapshots for the next one: made in $TMPDIR with mode 0700 (no other
/// user reads a plugin's state), removed with everything in it when the
/// supervisor lets go of it, at the end of the run.
package final class EngineStateFolder {
    package let path: String

    /// Makes the folder; throws why it could not, in one sentence.
    package init() throws(SupervisorError) {
        let parent = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? "/tmp"
        var template = Array((parent + "/fxhost-state-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .stateFolderNotMade(String(cString: strerror(errno)))
        }
        path = String(cString: made)  // mkdtemp makes it 0700
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
