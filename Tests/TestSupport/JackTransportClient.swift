import Foundation

/// JACK's own `jack_transport` client on a private server, fed commands on
/// its standard input (`master` makes it the timebase master).
package final class JackTransportClient {
    private let process = Process()
    private let input = Pipe()

    package init(server: String) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["jack_transport"]
        var environment = ProcessInfo.processInfo.environment
        environment["JACK_DEFAULT_SERVER"] = server
        process.environment = environment
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    package func send(_ commands: String...) {
        for command in commands { input.fileHandleForWriting.write(Data((command + "\n").utf8)) }
    }

    /// `quit`, and time to close its client; then SIGTERM, then SIGKILL, each
    /// after a bounded wait: terminated at once, it once hung for good in its
    /// signal handler closing the client, and the whole suite with it.
    package func stop() {
        send("quit")
        try? input.fileHandleForWriting.close()
        func exits(within seconds: Double) -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(20_000) }
            return !process.isRunning
        }
        if !exits(within: 10) {
            process.terminate()
            if !exits(within: 5) { kill(process.processIdentifier, SIGKILL) }
        }
        process.waitUntilExit()
    }
}
