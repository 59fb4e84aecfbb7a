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
    /// How long `stop()` waits for jackd to exit after SIGTERM.
    public let stopGracePeriod: Double
    /// True once `stop()` had to SIGKILL the server (and then reclaimed
    /// its registry slot).
    public private(set) var wasKilled = false
    /// False for the server that reclaims a killed one's slot.
    private var reclaimsSlotWhenKilled = true
    private let executable: String
    private let process: Process
    private let outputFile: URL

    static let setpriv = "/usr/bin/setpriv"

    /// A server name no other live test uses: process id, time, randomness.
    public static func uniqueName(prefix: String = "fxhost-test") -> String {
        "\(prefix)-\(getpid())-\(UInt64(Date().timeIntervalSince1970 * 1000) % 1_000_000)-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// - Parameter realtime: asks for SCHED_FIFO (`-R`); honoured only when
    ///   running as root, otherwise the server runs without realtime (`-r`).
    /// - Parameter stopGracePeriod: how long `stop()` waits for jackd to
    ///   exit after SIGTERM; by default `defaultGracePeriod`.
    public init(name: String = uniqueName(), sampleRate: Int = 48_000, bufferFrames: Int = 256,
                realtime: Bool = false, executable: String = "/usr/bin/jackd",
                readyTimeout: Double = 10, stopGracePeriod: Double? = nil) throws(JackServerProcessError) {
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.")
        guard !name.isEmpty, name != "default", name.allSatisfy({ allowed.contains($0) }) else {
            throw .invalidName(name)
        }
        self.name = name
        self.sampleRate = sampleRate
        self.bufferFrames = bufferFrames
        self.executable = executable
        self.stopGracePeriod = stopGracePeriod ?? Self.defaultGracePeriod(sampleRate: sampleRate, bufferFrames: bufferFrames)
        outputFile = FileManager.default.temporaryDirectory.appendingPathComponent("jackd-\(name).log")
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)

        process = Process()
        // Checked here: through setpriv, a missing jackd would only show as an exit status.
        guard FileManager.default.isExecutableFile(atPath: executable) else {
            throw .launchFailed(executable: executable, reason: "no executable file there (is jackd2 installed?)")
        }
        let scheduling = realtime && getuid() == 0 ? "-R" : "-r"
        let command = Self.launchCommand(executable: executable,
                                          arguments: ["-n", name, scheduling, "-d", "dummy", "-r", "\(sampleRate)", "-p", "\(bufferFrames)"])
        do {
            try Self.launch(process, command, environment: Self.environment, log: outputFile)
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

    /// The jackd process id.
    public var processIdentifier: Int32 { process.processIdentifier }

    /// The command that starts jackd with `arguments`: through setpriv
    /// when it is there, so the server dies with the process that started it.
    /// A test run that crashes then leaves no orphan jackd: jackd takes the
    /// parent-death SIGTERM as it takes any SIGTERM, exits cleanly and frees
    /// its slot in JACK's registry (setpriv, from util-linux, sets the
    /// parent-death signal and then execs jackd, so jackd keeps its pid).
    /// The signal comes when the *thread* that started jackd ends: start
    /// servers from a thread that outlives them (the test's own).
    public static func launchCommand(executable: String, arguments: [String]) -> [String] {
        if FileManager.default.isExecutableFile(atPath: setpriv) {
            return [setpriv, "--pdeathsig", "TERM", "--", executable] + arguments
        }
        return [executable] + arguments
    }

    /// Runs `command` (from `launchCommand`) in `process`, its output in
    /// `log`: a file, not a pipe, so nobody has to drain it and the server
    /// never blocks on output.
    static func launch(_ process: Process, _ command: [String], environment: [String: String], log: URL) throws {
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? handle.close()
    }

    /// jackd's environment: no device reservation over D-Bus, and no
    /// default server name inherited from whoever runs the tests.
    public static var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_NO_AUDIO_RESERVATION"] = "1"
        environment.removeValue(forKey: "JACK_DEFAULT_SERVER")
        return environment
    }

    /// How long a server may take to exit after SIGTERM before it is
    /// killed: at least 10 s, and 30 periods on slow servers. Measured here
    /// on a server with 2 s periods: with no client it exits 1.3 s after
    /// SIGTERM; a client process that died (the RealtimeSanitizer probe) is
    /// dropped about 4 periods (8 s) later, and a SIGTERM that comes before
    /// that makes jackd wait about 24 periods more (49 s) before it exits.
    /// The 3 s this used to wait killed such a server, and a killed server
    /// keeps its registry slot. The wait costs nothing when the server
    /// exits sooner (most take ~50 ms); `waitUntilClientIsGone` avoids the
    /// long case.
    public static func defaultGracePeriod(sampleRate: Int, bufferFrames: Int) -> Double {
        max(10, 30 * Double(bufferFrames) / Double(max(sampleRate, 1)))
    }

    /// Waits until the server has dropped the client `client` (one whose
    /// process ended or died); false after `timeout` seconds. jack2 drops a
    /// client that died without closing only some periods later, and a
    /// server stopped before that takes many periods more to exit.
    @discardableResult
    public func waitUntilClientIsGone(_ client: String, timeout: Double = 60) -> Bool {
        var status = jack_status_t(0)
        guard let observer = fxhost_jack_client_open("fxhost-observer", name, &status) else { return !isRunning }
        defer { jack_client_close(observer) }
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            guard let uuid = jack_get_uuid_for_client_name(observer, client) else { return true }
            jack_free(uuid)
            if Date() >= deadline { return false }
            usleep(20_000)
        }
    }

    /// Stops the server so that its registry slot is freed: SIGTERM, which
    /// jackd answers with a clean shutdown, and a wait of `gracePeriod`
    /// seconds (`stopGracePeriod` by default). SIGINT would not help after
    /// that: jackd takes SIGINT and SIGTERM alike, once. A server still
    /// there is killed with SIGKILL, which keeps its slot, so the slot is
    /// then reclaimed the way jack2 allows: a server of the same name
    /// starts (jack2 clears a dead server's slot of the same name) and is
    /// stopped gently. Last, the semaphores jackd leaves for clients that
    /// were still open when it stopped (`/dev/shm/jack_sem.UID_NAME_CLIENT`)
    /// are removed: they carry this server's unique name, so no one else
    /// uses them.
    public func stop(gracePeriod: Double? = nil) {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(gracePeriod ?? stopGracePeriod)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            wasKilled = true
            if reclaimsSlotWhenKilled { reclaimSlot() }
        }
        process.waitUntilExit()
        removeClientSemaphores()
    }

    /// Frees the slot a killed server kept, if it kept one.
    private func reclaimSlot() {
        do {
            try Self.reclaimSlot(named: name, executable: executable)
        } catch {
            FileHandle.standardError.write(Data("JackServerProcess: jackd for `\(name)` had to be killed: \(error)\n".utf8))
        }
    }

    /// Frees the registry slot of a dead server named `name`, if one is
    /// there: starts a server of that name, which jack2 lets take over the
    /// dead server's slot, and stops it gently. Throws when the slot is
    /// still there after that.
    public static func reclaimSlot(named name: String, executable: String = "/usr/bin/jackd") throws {
        guard let entry = try JackServerRegistry.read().entry(for: name) else { return }
        guard !entry.isAlive else { throw SlotError(description: "the slot of `\(name)` belongs to a running process (\(entry.pid))") }
        let again = try JackServerProcess(name: name, executable: executable, stopGracePeriod: 10)
        again.reclaimsSlotWhenKilled = false
        again.stop()
        if let left = try JackServerRegistry.read().entry(for: name) {
            throw SlotError(description: "its slot in JACK's registry could not be reclaimed (\(left))")
        }
    }

    struct SlotError: Error, CustomStringConvertible { var description: String }

    private func removeClientSemaphores() {
        for file in JackServerRegistry.files(of: name) where file.hasPrefix("jack_sem.") {
            unlink("/dev/shm/\(file)")
        }
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
