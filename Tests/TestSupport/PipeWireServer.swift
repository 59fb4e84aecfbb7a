import Foundation

/// Why a private PipeWire could not be started or steered.
public enum PipeWireServerError: Error, CustomStringConvertible {
    case launchFailed(executable: String, reason: String)
    case exitedEarly(status: Int32, output: String)
    case notReady(seconds: Double, output: String)
    case clientFailed(command: String, status: Int32, output: String)

    public var description: String {
        switch self {
        case .launchFailed(let executable, let reason):
            return "could not launch `\(executable)` (scripts/install-deps.sh installs pipewire and pipewire-jack): \(reason)"
        case .exitedEarly(let status, let output):
            return "pipewire exited with status \(status) before its JACK ports showed; its output:\n\(output)"
        case .notReady(let seconds, let output):
            return "pipewire did not show `system:playback_1` to JACK clients within \(seconds) s; its output:\n\(output)"
        case .clientFailed(let command, let status, let output):
            return "`\(command)` exited with status \(status): \(output)"
        }
    }
}

/// A private headless PipeWire for tests: `pipewire -c Tests/PipeWire/null-sink.conf`
/// with an `XDG_RUNTIME_DIR` of its own (mode 700, where its socket lives),
/// so it never meets a desktop's PipeWire and no session manager is needed.
/// JACK programs reach it through `pw-jack`, which puts PipeWire's libjack
/// first on their library path: run them as child processes (`jackCommand`),
/// since this process links jackd2's libjack. Ready when init returns;
/// `stop()` and `start()` take it away and bring it back (the same server
/// to its clients); `close()` or deinit ends it.
public final class PipeWireServer {
    /// Frames per cycle until a client or `forceQuantum` asks for others
    /// (`default.clock.quantum` in the configuration).
    public static let defaultQuantum = 1024

    /// The private runtime folder: its socket, `pipewire-0`, is the server.
    public let runtimeFolder: URL
    private var process: Process?
    private let outputFile: URL

    static let pipewire = "/usr/bin/pipewire"
    static let pwJack = "/usr/bin/pw-jack"
    static let pwMetadata = "/usr/bin/pw-metadata"

    /// The configuration the tests ship: PipeWire's minimal.conf with a null sink for the sound card.
    public static var configuration: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("PipeWire/null-sink.conf")
    }

    /// Makes the runtime folder and starts the server. The folder is short and
    /// under /tmp, not a test's scratch folder: a socket's path must fit in
    /// 108 bytes.
    public init(readyTimeout: Double = 30) throws(PipeWireServerError) {
        var template = Array("/tmp/fxhost-pw-XXXXXX".utf8CString)
        // mkdtemp makes the folder with mode 700, as XDG_RUNTIME_DIR must be.
        guard let made = mkdtemp(&template) else {
            throw .launchFailed(executable: Self.pipewire, reason: "no runtime folder: \(String(cString: strerror(errno)))")
        }
        runtimeFolder = URL(fileURLWithPath: String(cString: made))
        outputFile = runtimeFolder.appendingPathComponent("pipewire.log")
        try start(readyTimeout: readyTimeout)
    }

    deinit { close() }

    /// Stops the server for good and removes its runtime folder.
    public func close() {
        stop()
        try? FileManager.default.removeItem(at: runtimeFolder)
    }

    /// The environment PipeWire and its clients run in: this process's, with
    /// the private runtime folder and nothing that would point a client at
    /// another server (a remote's name, another runtime folder, a JACK server name).
    public var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for key in ["PIPEWIRE_REMOTE", "PIPEWIRE_RUNTIME_DIR", "PIPEWIRE_CONFIG_DIR", "PIPEWIRE_CONFIG_NAME",
                    "PIPEWIRE_QUANTUM", "PIPEWIRE_LATENCY", "PIPEWIRE_NODE", "PIPEWIRE_PROPS", "JACK_DEFAULT_SERVER"] {
            environment.removeValue(forKey: key)
        }
        environment["XDG_RUNTIME_DIR"] = runtimeFolder.path
        return environment
    }

    /// The command that runs the JACK program `executable` on this server.
    public func jackCommand(_ executable: String, _ arguments: [String]) -> [String] {
        [Self.pwJack, executable] + arguments
    }

    /// Everything pipewire printed since it last started.
    public var output: String { (try? String(contentsOf: outputFile, encoding: .utf8)) ?? "" }

    public var isRunning: Bool { process?.isRunning ?? false }

    /// Starts pipewire (again, after `stop()`, in the same runtime folder:
    /// the same server to its clients) and waits until a JACK client sees
    /// the null sink's ports. Through setpriv, as `JackServerProcess` starts
    /// jackd, so the server ends with the thread that started it.
    public func start(readyTimeout: Double = 30) throws(PipeWireServerError) {
        guard !isRunning else { return }
        guard FileManager.default.isExecutableFile(atPath: Self.pipewire),
              FileManager.default.isExecutableFile(atPath: Self.pwJack) else {
            throw .launchFailed(executable: Self.pipewire, reason: "it or pw-jack is missing")
        }
        let command = JackServerProcess.launchCommand(executable: Self.pipewire,
                                                      arguments: ["-c", Self.configuration.path])
        let process = Process()
        _ = FileManager.default.createFile(atPath: outputFile.path, contents: nil)
        do {
            try JackServerProcess.launch(process, command, environment: environment, log: outputFile)
        } catch {
            throw .launchFailed(executable: Self.pipewire, reason: "\(error)")
        }
        self.process = process
        let deadline = Date().addingTimeInterval(readyTimeout)
        while true {
            if !process.isRunning {
                process.waitUntilExit()
                throw .exitedEarly(status: process.terminationStatus, output: output)
            }
            if let ports = try? runJackClient("jack_lsp", []), ports.split(separator: "\n").contains("system:playback_1") {
                return
            }
            if Date() >= deadline {
                stop()
                throw .notReady(seconds: readyTimeout, output: output)
            }
            usleep(20_000)
        }
    }

    /// Stops the server as a session would (SIGTERM) and waits for it to exit,
    /// killing it after `gracePeriod` seconds. Its clients see the server shut down.
    public func stop(gracePeriod: Double = 10) {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(gracePeriod)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Forces the graph's quantum (frames per cycle) under running clients,
    /// as a user would: `pw-metadata -n settings 0 clock.force-quantum FRAMES`.
    /// 0 gives the configured quantum (1024) back.
    public func forceQuantum(_ frames: Int) throws(PipeWireServerError) {
        _ = try run([Self.pwMetadata, "-n", "settings", "0", "clock.force-quantum", "\(frames)"])
    }

    /// Runs the JACK program `executable` (on PATH) on this server through
    /// pw-jack, to its end; returns its stdout, or throws with its output
    /// when it fails.
    @discardableResult
    public func runJackClient(_ executable: String, _ arguments: [String]) throws(PipeWireServerError) -> String {
        try run(jackCommand(executable, arguments))
    }

    private func run(_ command: [String]) throws(PipeWireServerError) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw .launchFailed(executable: command[0], reason: "\(error)")
        }
        // Small outputs: stderr is read after stdout without either filling up.
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw .clientFailed(command: command.joined(separator: " "), status: process.terminationStatus,
                                output: text + errorText)
        }
        return text
    }
}
