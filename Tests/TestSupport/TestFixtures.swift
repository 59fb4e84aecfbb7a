import Foundation
import XCTest

/// Set-up that many test classes share, torn down by XCTest when the test
/// ends. XCTest keeps every test case object to the end of the run, so
/// nothing here waits for deinit: a server left to deinit would hold one of
/// JACK's few server slots for the rest of the run.
extension XCTestCase {
    /// A fresh empty folder for this test, named after it, removed when it
    /// ends (with the run's folder of `prefix`, once that is empty).
    public func makeScratchFolder(prefix: String) throws -> URL {
        let folder = try TestFolders.make(name, prefix: prefix)
        addTeardownBlock {
            try? FileManager.default.removeItem(at: folder)
            rmdir(folder.deletingLastPathComponent().path)
        }
        return folder
    }

    /// A private dummy JACK server for this test, stopped when it ends.
    public func startJackServer(sampleRate: Int = 48_000, bufferFrames: Int = 256) throws -> JackServerProcess {
        let server = try JackServerProcess(sampleRate: sampleRate, bufferFrames: bufferFrames)
        addTeardownBlock { server.stop() }
        return server
    }

    /// A private headless PipeWire for this test, closed when it ends.
    public func startPipeWire() throws -> PipeWireServer {
        let server = try PipeWireServer()
        addTeardownBlock { server.close() }
        return server
    }
}
