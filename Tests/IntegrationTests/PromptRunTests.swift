import Foundation
import XCTest

/// The console prompt used as a person uses it: `fxhost run` in a terminal
/// (a private tmux server), on a private dummy JACK server, keys typed with
/// `send-keys` and the screen read back with `capture-pane`. Every check
/// waits for what the screen shows, with a generous deadline.
final class PromptRunTests: XCTestCase {
    private static let prompt = "fxhost>"

    /// Starts `fxhost run amp.yaml` in a terminal; after it exits the pane
    /// shows `[exited N]` and the terminal's settings (`stty -a`), then waits.
    private func startRun(_ folder: URL, server: JackServerProcess, _ options: String = "") throws -> TmuxPane {
        let command = "cd '\(folder.path)' && '\(Tools.fxhost)' run amp.yaml --server \(server.name) \(options);"
            + " echo \"[exited $?]\"; stty -a; cat"
        let pane = try TmuxPane(command, environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        XCTAssertTrue(pane.waitFor { Self.promptLine($0) != nil && Self.lineAbovePrompt($0)?.contains("DSP") == true },
                      "no prompt under a status line:\n\(pane.screen)")
        return pane
    }

    /// The last line with something on it, when it is the prompt.
    private static func promptLine(_ lines: [String]) -> String? {
        guard let last = lines.lastIndex(where: { !$0.isEmpty }), lines[last].hasPrefix(prompt) else { return nil }
        return lines[last]
    }

    /// The line above the prompt (the status line once there is one).
    private static func lineAbovePrompt(_ lines: [String]) -> String? {
        guard let last = lines.lastIndex(where: { !$0.isEmpty }), last > 0 else { return nil }
        return lines[last - 1]
    }

    /// The run ended with `status` and gave the terminal back as it was
    /// (line mode and echo on, as `stty -a` shows after it).
    private func assertExited(_ pane: TmuxPane, _ status: Int, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertTrue(pane.waitFor { $0.contains("[exited \(status)]") && $0.contains { $0.contains("icanon") } },
                      pane.screen, file: file, line: line)
        let settings = pane.lines().joined(separator: " ").split(separator: " ")
        for flag in ["icanon", "echo", "ixon"] {
            XCTAssertTrue(settings.contains(Substring(flag)), "\(flag) not restored:\n\(pane.screen)", file: file, line: line)
        }
    }

    /// What is typed stays on the prompt line, the cursor after it, while
    /// the status line above it changes; on Enter the command runs and its
    /// echo appears above the status line.
    func testTypedTextStaysInViewWhileTheStatusLineUpdatesThenRunsOnEnter() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        let pane = try startRun(folder, server: server)
        let typed = "\(Self.prompt) set amp gain -3"
        pane.type("set amp gain -3")
        XCTAssertTrue(pane.waitFor { Self.promptLine($0) == typed }, pane.screen)

        // Several different status lines (the clock moves), each with the typed text under it, intact.
        var statuses: Set<String> = []
        let deadline = Date().addingTimeInterval(60)
        while statuses.count < 4 && Date() < deadline {
            let lines = pane.lines()
            XCTAssertEqual(Self.promptLine(lines), typed, "the status line disturbed the input:\n\(lines.joined(separator: "\n"))")
            let status = Self.lineAbovePrompt(lines) ?? ""
            XCTAssertTrue(status.contains("DSP") && status.contains("xruns"), "not the status line: \(status)")
            statuses.insert(status)
            if let row = lines.lastIndex(where: { !$0.isEmpty }), let cursor = pane.cursor(), cursor.row == row {
                XCTAssertEqual(cursor.column, typed.count, "the cursor left the end of the input")
            }
            usleep(100_000)
        }
        XCTAssertGreaterThanOrEqual(statuses.count, 4, "the status line did not update: \(statuses)")

        pane.press("Enter")
        XCTAssertTrue(pane.waitFor { lines in
            guard let echo = lines.firstIndex(of: "amp:gain = -3.0"), let command = lines.firstIndex(of: typed) else { return false }
            return command < echo && Self.promptLine(lines) == Self.prompt
                && Self.lineAbovePrompt(lines)?.contains("DSP") == true
        }, "no echo above the status line:\n\(pane.screen)")

        pane.press("C-d")
        assertExited(pane, 0)
    }

    /// A change made over OSC while a line is half typed: its echo is
    /// printed above the status line, and the half-typed line stays as it was.
    func testAnEchoFromOSCPrintsAboveWhatIsBeingTyped() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        let port = try OSCRunTests.freeUDPPort()
        let pane = try startRun(folder, server: server, "--osc \(port)")
        let typed = "\(Self.prompt) set amp gain -3"
        pane.type("set amp gain -3")
        XCTAssertTrue(pane.waitFor { Self.promptLine($0) == typed }, pane.screen)
        let sent = try Tools.run("oscsend", ["127.0.0.1", "\(port)", "/fxhost/set", "ssf", "amp", "gain", "-6"])
        XCTAssertEqual(sent.status, 0, sent.stderr)
        XCTAssertTrue(pane.waitFor { lines in
            guard let echo = lines.firstIndex(of: "amp:gain = -6.0"), let last = lines.lastIndex(where: { !$0.isEmpty }) else {
                return false
            }
            return lines[last] == typed && echo == last - 2 && lines[last - 1].contains("DSP")
        }, "the echo is not above the status line and the typed line:\n\(pane.screen)")
        pane.press("Enter")
        XCTAssertTrue(pane.waitFor { $0.contains("amp:gain = -3.0") }, pane.screen)
        pane.type("quit")
        pane.press("Enter")
        assertExited(pane, 0)
    }

    /// Commands from a pipe are read line by line as before, even with the
    /// status line on a terminal: no prompt, no history.
    func testAPipeGetsNoPrompt() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        let command = "cd '\(folder.path)' && echo 'set amp gain -4' | '\(Tools.fxhost)' run amp.yaml"
            + " --server \(server.name) --duration 3s; echo \"[exited $?]\"; cat"
        let pane = try TmuxPane(command, environment: ["XDG_STATE_HOME": folder.appendingPathComponent("state").path])
        XCTAssertTrue(pane.waitFor { $0.contains("[exited 0]") }, pane.screen)
        let lines = pane.lines()
        XCTAssertTrue(lines.contains("amp:gain = -4.0"), pane.screen)
        XCTAssertFalse(lines.contains { $0.contains(Self.prompt) }, pane.screen)
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("state/fxhost/history").path))
    }

    /// Tab completes a node name, then one of its parameters; with several
    /// command words fitting, a second Tab lists them.
    func testTabCompletesANodeAndAParameterName() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        let pane = try startRun(folder, server: server)
        pane.type("set a")
        pane.press("Tab")
        XCTAssertTrue(pane.waitFor { Self.promptLine($0) == "\(Self.prompt) set amp" }, pane.screen)
        pane.type("ga")
        pane.press("Tab")
        pane.type("-6")
        XCTAssertTrue(pane.waitFor { Self.promptLine($0) == "\(Self.prompt) set amp gain -6" }, pane.screen)
        pane.press("Enter")
        XCTAssertTrue(pane.waitFor { $0.contains("amp:gain = -6.0") }, pane.screen)

        pane.type("b")
        pane.press("Tab")
        pane.press("Tab")
        XCTAssertTrue(pane.waitFor { lines in lines.contains { $0.hasPrefix("bounce") && $0.hasSuffix("bypass") } },
                      pane.screen)
        XCTAssertEqual(Self.promptLine(pane.lines()), "\(Self.prompt) b")

        pane.press("C-c")  // SIGINT: the taps finalised, exit 0, the terminal given back
        assertExited(pane, 0)
    }

    /// A command typed in one run comes back with Up in the next (the
    /// history file in $XDG_STATE_HOME), and runs again on Enter.
    func testHistoryRecallsACommandOfAnEarlierRun() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder()
        try LiveRunTests.writeAmpPatch(folder, seconds: 30)
        do {
            let first = try startRun(folder, server: server)
            first.type("set amp gain -2")
            first.press("Enter")
            XCTAssertTrue(first.waitFor { $0.contains("amp:gain = -2.0") }, first.screen)
            first.type("quit")
            first.press("Enter")
            assertExited(first, 0)
        }
        let history = try String(contentsOf: folder.appendingPathComponent("state/fxhost/history"), encoding: .utf8)
        XCTAssertEqual(history, "set amp gain -2\nquit\n")

        let second = try startRun(folder, server: server)
        XCTAssertFalse(second.lines().contains("amp:gain = -2.0"))
        second.press("Up")
        XCTAssertTrue(second.waitFor { Self.promptLine($0) == "\(Self.prompt) quit" }, second.screen)
        second.press("Up")
        XCTAssertTrue(second.waitFor { Self.promptLine($0) == "\(Self.prompt) set amp gain -2" }, second.screen)
        second.press("Enter")
        XCTAssertTrue(second.waitFor { $0.contains("amp:gain = -2.0") }, second.screen)
        second.type("quit")
        second.press("Enter")
        assertExited(second, 0)
    }
}
