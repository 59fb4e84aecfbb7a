import Foundation
import HostCore
@_exported import TestSupport
import XCTest

/// Runs the built `fxhost` and reference hosts, and makes and reads sound
/// files for the tests.
enum Tools {
    /// The folder holding the built products (the test bundle sits in it).
    static var productsFolder: URL {
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            return bundle.bundleURL.deletingLastPathComponent()
        }
        return Bundle.main.bundleURL
    }

    static var fxhost: String { productsFolder.appendingPathComponent("fxhost").path }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The environment a child runs in: `base` (this process's, unless a
    /// private server's), with fxhost's plugin cache in a folder of this test
    /// run's own (a test that studies the cache names its own), then `extra`.
    static func childEnvironment(_ extra: [String: String],
                                 base: [String: String] = ProcessInfo.processInfo.environment) -> [String: String] {
        var environment = base
        environment["XDG_CACHE_HOME"] = testCacheFolder
        return environment.merging(extra) { $1 }
    }

    private static let testCacheFolder = FileManager.default.temporaryDirectory
        .appendingPathComponent("fxhost-test-cache-\(getpid())").path

    /// Runs a program to the end; `executable` is found on PATH unless it is a path.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:]) throws -> Result {
        let process = Process()
        if executable.contains("/") {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [executable] + arguments
        }
        process.environment = childEnvironment(environment)
        // stderr goes to a file so a chatty child never blocks on a full pipe
        // while stdout is being read.
        let errorFile = FileManager.default.temporaryDirectory.appendingPathComponent("fxhost-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errorFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorFile) }
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = try FileHandle(forWritingTo: errorFile)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let outputData = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errorData = (try? Data(contentsOf: errorFile)) ?? Data()
        return Result(status: process.terminationStatus, stdout: String(decoding: outputData, as: UTF8.self),
                      stderr: String(decoding: errorData, as: UTF8.self))
    }

    /// Runs fxhost and fails the test (with its stderr) unless it exits 0.
    @discardableResult
    static func fxhost(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Result {
        let result = try run(fxhost, arguments)
        XCTAssertEqual(result.status, 0, "fxhost \(arguments.joined(separator: " ")) failed: \(result.stderr)",
                       file: file, line: line)
        return result
    }

    /// A new empty folder for one test.
    static func temporaryFolder(_ name: String = #function) throws -> URL {
        try TestFolders.make(name, prefix: "fxhost-tests")
    }

    /// A socket of `type` (SOCK_STREAM, listening, or SOCK_DGRAM) holding a
    /// free loopback port, to see a run refuse a port in use; close it after.
    static func occupiedLoopbackPort(_ type: __socket_type) -> (socket: Int32, port: UInt16)? {
        let holder = socket(AF_INET, Int32(type.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var size = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(holder, $0, size) == 0 && (type != SOCK_STREAM || listen(holder, 1) == 0)
                    && getsockname(holder, $0, &size) == 0
            }
        }
        guard bound else { close(holder); return nil }
        return (holder, UInt16(bigEndian: address.sin_port))
    }
}

/// Asserts two signals are sample-identical, naming the first difference.
func XCTAssertIdentical(_ actual: Audio, _ expected: Audio, _ message: String = "",
                        file: StaticString = #filePath, line: UInt = #line) {
    XCTAssertEqual(actual.channels.count, expected.channels.count, "channel count \(message)", file: file, line: line)
    XCTAssertEqual(actual.frames, expected.frames, "length \(message)", file: file, line: line)
    for channel in 0..<min(actual.channels.count, expected.channels.count) {
        let a = actual.channels[channel], e = expected.channels[channel]
        if let index = (0..<min(a.count, e.count)).first(where: { a[$0] != e[$0] && !(a[$0].isNaN && e[$0].isNaN) }) {
            XCTFail("channel \(channel + 1) differs first at frame \(index): \(a[index]) vs \(e[index]) \(message)",
                    file: file, line: line)
        }
    }
}
