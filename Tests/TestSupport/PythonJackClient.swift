import Foundation

/// Runs a python JACK-Client script to its end, as the MIDI senders do:
/// `python3 -c script arguments…`, its output collected, and its failure
/// thrown with what it said.
enum PythonJackClient {
    /// `what`: the client, for the error ("the JACK-Client MIDI sender").
    static func run(_ script: String, arguments: [String], what: String) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MIDISenderError(description: "\(what) (scripts/install-deps.sh installs JACK-Client) exited with status \(process.terminationStatus): \(text)",
                                   status: process.terminationStatus)
        }
    }
}
