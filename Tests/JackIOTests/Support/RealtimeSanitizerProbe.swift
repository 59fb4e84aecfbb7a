import Foundation
import TestSupport

/// Runs `rtsan-probe` (Sources/rtsan-probe), the child process in which a
/// RealtimeSanitizer violation may abort, as a client of a test's server.
enum RealtimeSanitizerProbe {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the probe built next to this test bundle in `mode` on `server`
    /// (`rtsan-probe MODE SERVER FRAMES`), killing it after 120 s (the probe
    /// itself gives the first cycle 60 s). Returns once the server has
    /// dropped the probe's client too, so that the server, stopped next,
    /// stops in time (see `JackServerProcess.defaultGracePeriod`).
    static func run(_ mode: String, on server: JackServerProcess, frames: Int = 64, options: String?) throws -> Result {
        let arguments = [mode, server.name, "\(frames)"]
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let probe = directory.appendingPathComponent("rtsan-probe")
        // A failure, not a skip: without the probe the sanitizer is untested.
        guard FileManager.default.isExecutableFile(atPath: probe.path) else {
            struct ProbeMissing: Error, CustomStringConvertible { var description: String }
            throw ProbeMissing(description: "rtsan-probe is not built next to the tests at \(probe.path); run `swift build --build-tests`")
        }
        let process = Process()
        process.executableURL = probe
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["RTSAN_OPTIONS"] = options
        process.environment = environment
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("rtsan-probe-\(UUID().uuidString)")
        let stdoutURL = output.appendingPathExtension("out"), stderrURL = output.appendingPathExtension("err")
        _ = FileManager.default.createFile(atPath: stdoutURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        defer {
            try? FileManager.default.removeItem(at: stdoutURL)
            try? FileManager.default.removeItem(at: stderrURL)
        }
        process.standardOutput = try FileHandle(forWritingTo: stdoutURL)
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        try process.run()
        let deadline = Date().addingTimeInterval(120)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        server.waitUntilClientIsGone("rtsan-probe", timeout: 10 + 30 * Double(server.bufferFrames) / Double(server.sampleRate))
        return Result(status: process.terminationStatus,
                      stdout: (try? String(contentsOf: stdoutURL, encoding: .utf8)) ?? "",
                      stderr: (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")
    }
}
