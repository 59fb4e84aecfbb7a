import CJack
import CJackShim
import Foundation

/// Why a private JACK server could not be started.
public enum JackServerProcessError: Error, CustomStringConvertible {
    case invalidName(String)
    case launchFailed(executable: String, reason: String)
    case exitedEarly(name: String, status: Int32, output: String)
    case notReady(name: String, seconds: Double, output: String)

    public var description: String {
        switch self {
        case .invalidName(let name):
            return "`\(name)` cannot name a private JACK server (it must be non-empty, not `default`, and use only letters, digits, `-`, `_` or `.`)"
        case .launchFailed(let executable, let reason):
            return "could not launch `\(executable)`: \(reason)"
        case .exitedEarly(let name, let status, let output):
            return "jackd for server `\(name)` exited with status \(status) before accepting clients; its output:\n\(output)"
        case .notReady(let name, let seconds, let output):
            return "jackd for server `\(name)` did not accept clients within \(seconds) s; its output:\n\(output)"
        }
    }
}

/// A private `jackd -n NAME -d dummy` for tests: started on init,
/// ready when init returns, stopped by `stop()` or deinit. It never touches
/// the default server.
public final class JackServerProcess {
    public let name: String
    public let sampleRate: Int
    public let bufferFrames: Int
    private let process: Process
    private let outputFile: URL

    static let setpriv = "/usr/bin/setpriv"

    /// A server name no other live test uses: process id, time, randomness.
    public static func uniqueName(prefix: String = "fxhost-test") -> String {
        "\(prefix)-\(getpid())-\(UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// - Parameter realtime: asks for SCHED_FIFO (`-R`); honoured only when
    ///   running as root, otherwise the server runs without realtime (`-r`).
    public init(name: String = uniqueName(), sampleRate: Int = 48_000, bufferFrames: Int = 256,
                realtime: Bool = false, executable: String = "/usr/bin/jackd",
                readyTimeout: Double = 10) throws(JackServerProcessError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard !name.isEmpty, name != "default", name.allSatisfy({ allowed.contains($0) }) else {
            throw .invalidName(name)
        }
        self.name = name
        self.sampleRate = sampleRate
        self.bufferFrames = bufferFrames
        outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("jackd-\(name).log")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)

        process = Process()
        // Checked here: through setpriv, a missing jackd would only show as an exit status.
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw .launchFailed(executable: executable, reason: "no executable file there (is jackd2 installed?)")
        }
        let scheduling = realtime && getuid() == 0 ? "-R" : "-r"
        let arguments = ["-n", name, scheduling, "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(bufferFrames)"]
        // The server dies with the process that started it: a test run that
        // crashes leaves no orphan jackd holding one of JACK's eight server
        // slots (setpriv, from util-linux, sets the parent-death signal).
        if FileManager.default.isExecutableFile(atPath: Self.setpriv) {
            process.executableURL = URL(fileURLWithPath: Self.setpriv)
            process.arguments = ["--pdeathsig", "TERM", "--", executable] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = arguments
        }
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_NO_AUDIO_RESERVATION"] = "1"
        environment.removeValue(forKey: "JACK_DEFAULT_SERVER")
        process.environment = environment
        // A file, not a pipe: nobody has to drain it, so jackd never blocks on output.
        do {
            let handle = try FileHandle(forWritingTo: outputFile)
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            try process.run()
            try? handle.close()
        } catch {
            throw .launchFailed(executable: executable, reason: "\(error)")
        }
        try waitUntilReady(timeout: readyTimeout)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: outputFile)
    }

    /// Everything jackd printed so far.
    public var output: String {
        (try? String(contentsOf: outputFile, encoding: .utf8)) ?? ""
    }

    public var isRunning: Bool { process.isRunning }

    /// The jackd process id (for tests that kill a server the hard way).
    public var processIdentifier: Int32 { process.processIdentifier }

    /// SIGTERM, then SIGKILL if jackd is still there after `gracePeriod` seconds.
    public func stop(gracePeriod: Double = 3) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(gracePeriod)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Polls with a real client until the server accepts one.
    private func waitUntilReady(timeout: Double) throws(JackServerProcessError) {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if !process.isRunning {
                process.waitUntilExit()
                throw .exitedEarly(name: name, status: process.terminationStatus, output: output)
            }
            var status = jack_status_t(0)
            if let probe = fxhost_jack_client_open("fxhost-ready-probe", name, &status) {
                jack_client_close(probe)
                return
            }
            if Date() >= deadline {
                stop()
                throw .notReady(name: name, seconds: timeout, output: output)
            }
            usleep(20_000)
        }
    }
}
