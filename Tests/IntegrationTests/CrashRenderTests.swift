import Foundation
import XCTest

/// A plugin that crashes in `fxhost render` (issue 18, offline): one
/// sentence on stderr naming the node, the plugin, the LV2 call, the signal
/// and where in the input it happened; exit status 1; no output file,
/// partial or hidden; the backtrace in the log file the sentence names.
/// The plugins are TestSupport's CrashingPlugins, which fail on purpose;
/// the times are arithmetic on the blocks they pass before failing.
final class CrashRenderTests: XCTestCase {
    private struct Setup {
        let folder: URL
        let work: URL
        let logs: URL
        let environment: [String: String]

        func path(_ name: String) -> String { work.appendingPathComponent(name).path }
    }

    /// The crashing plugins on their own LV2_PATH, a work folder holding a
    /// 5 s mono input at 48 kHz, and TMPDIR (where the log goes) of its own.
    private func makeSetup(_ name: String = #function) throws -> Setup {
        let folder = try Tools.temporaryFolder(name)
        let work = folder.appendingPathComponent("work"), logs = folder.appendingPathComponent("tmp")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("plugins"))
        try Audio.constant([0.25], frames: 5 * 48_000).write(work.appendingPathComponent("in.wav").path)
        return Setup(folder: folder, work: work, logs: logs,
                     environment: ["LV2_PATH": plugins.path, "TMPDIR": logs.path])
    }

    /// Runs fxhost in the work folder's terms and returns what it did.
    private func render(_ setup: Setup, _ arguments: [String]) throws -> Tools.Result {
        try Tools.run(Tools.fxhost, ["render"] + arguments + ["--quiet"], environment: setup.environment)
    }

    /// The one line fxhost printed, checked to be one line with no backtrace.
    private func sentence(_ result: Tools.Result, file: StaticString = #filePath, line: UInt = #line) -> String {
        XCTAssertEqual(result.status, 1, "a crash exits 1: \(result.stderr)", file: file, line: line)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        XCTAssertEqual(lines.count, 1, "one line on stderr, not a backtrace: \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        return String(lines.first ?? "")
    }

    /// The log the sentence names, which must be in TMPDIR and hold a
    /// backtrace through the plugin's library.
    private func expectLog(_ sentence: String, in setup: Setup, file: StaticString = #filePath, line: UInt = #line) throws {
        let marker = "the backtrace is in "
        guard let range = sentence.range(of: marker) else {
            return XCTFail("the sentence names no log: \(sentence)", file: file, line: line)
        }
        let log = String(sentence[range.upperBound...])
        XCTAssertEqual(URL(fileURLWithPath: log).deletingLastPathComponent().path, setup.logs.path,
                       "the log goes to TMPDIR", file: file, line: line)
        let text = try String(contentsOfFile: log, encoding: .utf8)
        XCTAssertTrue(text.contains("libcrashy.so"), "the backtrace passes through the plugin: \(text)", file: file, line: line)
        XCTAssertTrue(text.contains(sentence), "the log starts with the sentence", file: file, line: line)
    }

    /// Nothing but the input in the work folder: no output, no hidden partial.
    private func expectNothingWritten(_ setup: Setup, besides others: [String] = [],
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: setup.work.path).sorted(),
                       (["in.wav"] + others).sorted(), file: file, line: line)
    }

    /// m:ss.mmm of `frames` at 48 kHz, rounded to the millisecond.
    private func time(frames: Int) -> String {
        let milliseconds = Int((Double(frames) * 1000 / 48_000).rounded())
        return "\(milliseconds / 60_000):" + String(format: "%02d.%03d", milliseconds / 1000 % 60, milliseconds % 1000)
    }

    func testACrashInRunIsOneSentenceWithTheNodeTheCallAndTheTimeAndNoFileIsLeft() throws {
        let setup = try makeSetup()
        try """
        fxhost: 1
        nodes:
          in: { input: 1 }
          bad: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 100 } }
          out: { output: 1 }
        chain: [in, bad, out]
        """.write(toFile: setup.path("crash.yaml"), atomically: true, encoding: .utf8)
        let result = try render(setup, [setup.path("crash.yaml"), "-i", setup.path("in.wav"), "-o", setup.path("out.wav"),
                                        "--block", "512"])
        let line = sentence(result)
        // 100 whole blocks of 512 pass; the 101st run() starts at frame 51200: 1.067 s.
        XCTAssertEqual(time(frames: 100 * 512), "0:01.067")
        for part in ["node `bad`", "(Crashy Effect)", "run()", "SIGSEGV", "at 0:01.067 of the input", "nothing was written"] {
            XCTAssertTrue(line.contains(part), "`\(part)` in: \(line)")
        }
        XCTAssertTrue(line.hasPrefix("fxhost: error: "), line)
        try expectNothingWritten(setup, besides: ["crash.yaml"])
        try expectLog(line, in: setup)
    }

    func testAnAbortInInstantiateIsNamedAndNothingIsWritten() throws {
        let setup = try makeSetup()
        // With --json too: stdout stays empty, the sentence is on stderr, as for any error.
        let result = try render(setup, ["--chain", CrashingPlugins.abortInInstantiate, "-i", setup.path("in.wav"),
                                        "-o", setup.path("out.wav"), "--json"])
        let line = sentence(result)
        for part in ["(Aborting Effect)", "crashed in instantiate()", "SIGABRT"] {
            XCTAssertTrue(line.contains(part), "`\(part)` in: \(line)")
        }
        try expectNothingWritten(setup)
        try expectLog(line, in: setup)
    }

    func testACrashInTheWorkersWorkIsNamedAsTheWorkerCall() throws {
        let setup = try makeSetup()
        try """
        fxhost: 1
        nodes:
          in: { input: 1 }
          loader: { plugin: "\(CrashingPlugins.crashInWork)", params: { after: 20 } }
          out: { output: 1 }
        chain: [in, loader, out]
        """.write(toFile: setup.path("work.yaml"), atomically: true, encoding: .utf8)
        let result = try render(setup, [setup.path("work.yaml"), "-i", setup.path("in.wav"), "-o", setup.path("out.wav"),
                                        "--block", "256"])
        let line = sentence(result)
        // Asked from the 21st run(), which starts at frame 20 × 256.
        for part in ["node `loader`", "(Crashy Worker)", "work()", "SIGSEGV", "at \(time(frames: 20 * 256)) of the input"] {
            XCTAssertTrue(line.contains(part), "`\(part)` in: \(line)")
        }
        XCTAssertFalse(line.contains("run()"), "the worker's call, not run(), is named: \(line)")
        try expectNothingWritten(setup, besides: ["work.yaml"])
    }

    /// Two branches on two threads, and a tap: the crash names the node that
    /// crashed whichever thread ran it (rendered until one run's log shows
    /// the render worker: up to 60 runs, since on a loaded machine the
    /// process thread often takes both branches), and the tap's partial goes too.
    func testWithTwoThreadsTheBranchThatCrashedIsNamed() throws {
        let setup = try makeSetup()
        var threads: [String] = []
        while threads.count < 60 && (threads.count < 2 || !threads.contains("fxhost render 1")) {
            let (bad, good) = threads.count % 2 == 0 ? ("left", "right") : ("right", "left")
            try """
            fxhost: 1
            nodes:
              in: { input: 1 }
              left: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: \(bad == "left" ? 50 : 1_000_000) } }
              right: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: \(bad == "right" ? 50 : 1_000_000) } }
              out: { output: 1 }
            connect: [in -> left, in -> right, left -> out, right -> out]
            taps:
              - { at: \(good), file: tap.wav }
            """.write(toFile: setup.path("branches.yaml"), atomically: true, encoding: .utf8)
            let result = try render(setup, [setup.path("branches.yaml"), "-i", setup.path("in.wav"),
                                            "-o", setup.path("out.wav"), "--threads", "2", "--block", "512"])
            let line = sentence(result)
            XCTAssertTrue(line.contains("node `\(bad)` (Crashy Effect) crashed in run() (SIGSEGV) at \(time(frames: 50 * 512))"),
                          line)
            XCTAssertFalse(line.contains("`\(good)`"), line)
            try expectNothingWritten(setup, besides: ["branches.yaml"])
            guard let thread = try crashedThread(line) else { break }
            threads.append(thread)
        }
        XCTAssertTrue(threads.contains("fxhost render 1"), "never on the worker thread: \(threads)")
    }

    /// The thread the log names as the one that crashed.
    private func crashedThread(_ sentence: String) throws -> String? {
        guard let log = sentence.components(separatedBy: "the backtrace is in ").last, sentence.contains("the backtrace is in ")
        else { return nil }
        let text = try String(contentsOfFile: log, encoding: .utf8)
        return text.split(separator: "\n").first { $0.hasPrefix("Thread: ") }.map { String($0.dropFirst("Thread: ".count)) }
    }

    /// A stack overflow in run(), on the main thread and on a render worker:
    /// the handler runs on the thread's alternate signal stack (without one,
    /// the kernel cannot deliver the signal and the process dies raw).
    func testAStackOverflowInRunIsCaughtOnEitherThread() throws {
        let setup = try makeSetup()
        try """
        fxhost: 1
        nodes:
          in: { input: 1 }
          deep: { plugin: "\(CrashingPlugins.overflowInRun)", params: { after: 10 } }
          out: { output: 1 }
        chain: [in, deep, out]
        """.write(toFile: setup.path("deep.yaml"), atomically: true, encoding: .utf8)
        let result = try render(setup, [setup.path("deep.yaml"), "-i", setup.path("in.wav"), "-o", setup.path("out.wav")])
        XCTAssertTrue(sentence(result).contains("node `deep` (Deep Effect) crashed in run() (SIGSEGV) at \(time(frames: 10 * 512))"),
                      result.stderr)
        // Two branches on two threads: which thread runs a branch depends on
        // which gets to it first, so render until the log (which names the
        // thread) shows the overflow on the render worker, each run reported.
        try """
        fxhost: 1
        nodes:
          in: { input: 1 }
          left: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 1000000 } }
          right: { plugin: "\(CrashingPlugins.overflowInRun)", params: { after: 200 } }
          out: { output: 1 }
        connect: [in -> left, in -> right, left -> out, right -> out]
        """.write(toFile: setup.path("deep.yaml"), atomically: true, encoding: .utf8)
        var threads: [String] = []
        while threads.count < 20 && !threads.contains("fxhost render 1") {
            let result = try render(setup, [setup.path("deep.yaml"), "-i", setup.path("in.wav"), "-o", setup.path("out.wav"),
                                            "--threads", "2"])
            let line = sentence(result)
            XCTAssertTrue(line.contains("node `right` (Deep Effect) crashed in run() (SIGSEGV)"), result.stderr)
            guard let thread = try crashedThread(line) else { break }
            threads.append(thread)
        }
        XCTAssertTrue(threads.contains("fxhost render 1"), "never on the worker thread: \(threads)")
        try expectNothingWritten(setup, besides: ["deep.yaml"])
    }

    /// A plugin's name comes from its bundle, which anyone may write: its
    /// control characters are shown escaped, as everything fxhost prints.
    func testControlCharactersInThePluginsNameDoNotReachTheTerminal() throws {
        let setup = try makeSetup()
        let ttl = setup.folder.appendingPathComponent("plugins/crashy.lv2/crashy.ttl")
        let text = try String(contentsOf: ttl, encoding: .utf8)
        // Turtle's \u escapes: ESC ] 0 ; … BEL would retitle the terminal.
        try text.replacingOccurrences(of: "\"Crashy Effect\"", with: "\"Crashy\\u001B]0;owned\\u0007\\nEffect\"")
            .write(to: ttl, atomically: true, encoding: .utf8)
        try """
        fxhost: 1
        nodes:
          in: { input: 1 }
          bad: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 3 } }
          out: { output: 1 }
        chain: [in, bad, out]
        """.write(toFile: setup.path("crash.yaml"), atomically: true, encoding: .utf8)
        let result = try render(setup, [setup.path("crash.yaml"), "-i", setup.path("in.wav"), "-o", setup.path("out.wav")])
        let line = sentence(result)
        XCTAssertFalse(result.stderr.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" }, result.stderr)
        XCTAssertTrue(line.contains("(Crashy\\e]0;owned\\x07\\nEffect)"), line)
    }
}
