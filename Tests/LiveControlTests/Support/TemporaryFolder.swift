import Foundation
import TestSupport

/// A fresh folder for one test's files, named after the test.
func temporaryFolder(_ name: String = #function) throws -> URL {
    try TestFolders.make(name, prefix: "fxhost-livecontrol")
}
