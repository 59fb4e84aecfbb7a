import Foundation
import HostCore
import JackIO
import XCTest

/// What reaches the operator's terminal from outside, judged by the bytes
/// `fxhost run` writes on stdout and stderr: escape sequences sent over OSC
/// (python-osc) or typed on the console are shown, never sent, and a huge
/// word is not printed whole.
final class TerminalSafetyRunTests: XCTestCase {
    /// A tap file name that would retitle the terminal, one with a line
    /// break, a preset name that would clear it (ESC and C1 CSI), and a
    /// 60 KB parameter name over OSC; a console line with ESC and BEL, and
    /// one of 1 MB. No ESC, BEL or C1 byte reaches stdout or stderr; the
    /// tap's echo shows the name escaped, on one line; each refusal of the
    /// huge words takes under 2 KB of stderr, and OSC's `/fxhost/error`
    /// for the 60 KB name is under 2 KB too.
    func testEscapeSequencesFromOutsideAreShownNotSent() throws {
        let (server, _, port, run) = try OSCRunTests.startAmpRun(seconds: 30)
        defer { withExtendedLifetime(server) {} }
        // Relative: a path from OSC is resolved inside the patch's folder.
        let retitle = "\u{1b}]2;PWNED\u{07}.wav"
        let split = "a\nb.wav"
        let client = try Tools.run("python3", ["-c", OSCRunTests.clientStart + """
            def wait_for(*addresses):
                while True:
                    message = OscMessage(sock.recvfrom(65536)[0])
                    if message.address in addresses:
                        print(message.address, flush=True)
                        return
            send("/fxhost/subscribe")
            send("/fxhost/tap", "amp", sys.argv[2])
            wait_for("/fxhost/tap", "/fxhost/error")
            send("/fxhost/tap", "main", sys.argv[3])
            wait_for("/fxhost/tap", "/fxhost/error")
            send("/fxhost/preset", "amp", "\\x1b[2J\\x1b[H\\u009b2J")
            wait_for("/fxhost/preset", "/fxhost/error")
            send("/fxhost/set", "amp", "g" * 60000, 1.0)
            while True:
                message = OscMessage(sock.recvfrom(65536)[0])
                if message.address == "/fxhost/error":
                    print("error reply", len(message.params[0].encode()), flush=True)
                    break
            """, "\(port)", retitle, split])
        XCTAssertEqual(client.status, 0, "python-osc (scripts/install-deps.sh) must be installed: \(client.stderr)")
        let replyLength = client.stdout.split(separator: "\n").last { $0.hasPrefix("error reply ") }
            .flatMap { Int($0.dropFirst("error reply ".count)) }
        XCTAssertLessThan(replyLength ?? .max, 2_048, "the 60 KB name is not sent back whole: \(client.stdout)")
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains("has no parameter `ggg") },
                      String(run.stderr.prefix(4_000)))
        let beforeConsole = run.stderrBytes.count

        run.type("set amp \"\u{1b}]2;PWNED\u{07}\" 1")
        XCTAssertTrue(eventually(within: 30) { run.stderr.contains("PWNED") }, String(run.stderr.suffix(2_000)))
        let beforeHuge = run.stderrBytes.count
        run.type("set amp " + String(repeating: "g", count: 1 << 20) + " 1")
        run.type("status")  // answered after the huge line: its refusal is written by then
        XCTAssertTrue(eventually(within: 60) { run.stdout.contains("DSP ") }, run.stdout)
        let afterHuge = run.stderrBytes.count
        run.type("quit")
        XCTAssertEqual(run.waitForExit(seconds: 60), 0, String(run.stderr.suffix(2_000)))

        let output = run.stdoutBytes, errors = run.stderrBytes
        for (name, bytes) in [("stdout", output), ("stderr", errors)] {
            XCTAssertFalse(bytes.contains(0x1B), "an ESC byte on \(name)")
            XCTAssertFalse(bytes.contains(0x07), "a BEL byte on \(name)")
            let text = String(decoding: bytes, as: UTF8.self)
            XCTAssertFalse(text.unicodeScalars.contains { (0x80...0x9F).contains($0.value) }, "a C1 control on \(name)")
        }
        let lines = String(decoding: output, as: UTF8.self).split(separator: "\n")
        XCTAssertTrue(lines.contains { $0.hasSuffix("\\e]2;PWNED\\x07.wav: recording") },
                      "the tap's echo, its name escaped: \(lines)")
        XCTAssertTrue(lines.contains { $0.hasPrefix("tap main → ") && $0.hasSuffix("a\\nb.wav: recording") },
                      "a line break in a name stays on the echo's line: \(lines)")
        let errorLines = String(decoding: errors, as: UTF8.self).split(separator: "\n")
        let oscRefusal = errorLines.first { $0.contains("has no parameter `ggg") }
        XCTAssertLessThan(oscRefusal?.utf8.count ?? .max, 2_048, "the 60 KB name is cut")
        XCTAssertLessThan(beforeConsole, 8_192, "three OSC refusals, none whole")
        XCTAssertTrue(errorLines.contains { $0.contains("\\e]2;PWNED\\x07") }, "the console's refusal, escaped")
        XCTAssertGreaterThan(afterHuge, beforeHuge, "the 1 MB line is refused")
        XCTAssertLessThan(afterHuge - beforeHuge, 2_048, "the 1 MB line's refusal is not echoed whole")
    }
}
