import Foundation
import HostCore
import TestSupport
import XCTest

/// The `--web` page in a real browser: headless Chromium (Debian's), driven
/// by Selenium through Debian's chromedriver, from the Python scripts in
/// `Tests/Browser/`, which print what they saw; judged here by arithmetic
/// on a live tap, and by what the page and the server report.
final class WebPageTests: XCTestCase {
    /// Two pages of one run. The output meter shows the constant 0.5 at
    /// 20·log10(0.5) = -6.02 dBFS; six Left Arrows on `amp gain` make it
    /// -6 in both pages and the tap ×10^(-6/20); a `set` from the console
    /// and one over OSC move both sliders; a slider held in a drag is not
    /// pulled back by a console set, and shows it once released; bypass
    /// (greyed in the graph) passes 0.5 through; the scene button switches
    /// to -20 dB (×0.1); record, pause, resume and stop make a take.
    /// The tap's meter in its row shows what amp makes of the 0.5 at -6 dB,
    /// 20·log10(0.5 × 0.501187) = -12.02 dBFS; a tap started from the
    /// console (on dc: 0.5, -6.02 dBFS) appears with its meter in both pages
    /// and goes with it when stopped. Learn pressed in one page waits in
    /// both; a CC from a JACK client of PyPI's JACK-Client makes the mapping
    /// the console prints, shown under the control in both pages; CC 20 at 50
    /// then puts the gain at -90 + 114 × 50/127 dB in both pages, on the
    /// tap's meter and in the take.
    func testPagesFollowEveryFaceAndMoveTheSoundByArithmetic() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        try LiveRunTests.writeAmpPatch(folder, seconds: 60)
        let patch = folder.appendingPathComponent("amp.yaml").path
        try (String(contentsOfFile: patch, encoding: .utf8) + "\nscenes:\n  quiet: { amp: { gain: -20 } }\nmidi-control: {}\n")
            .write(toFile: patch, atomically: true, encoding: .utf8)
        let osc = try OSCRunTests.freeUDPPort()
        let seen = try Self.browse("page_sync.py", [Tools.fxhost, patch, server.name, "\(osc)", folder.path])
        func report(_ kind: String) -> [String: Any] { seen.first { $0["kind"] as? String == kind } ?? [:] }

        XCTAssertEqual(report("meter")["peak"] as? Double ?? 0, 20 * log10(0.5), accuracy: 1e-3)
        XCTAssertEqual(report("meter")["text"] as? String, "-6.02 dBFS")
        XCTAssertEqual(report("control")["role"] as? String, "slider")
        XCTAssertEqual(report("control")["min"] as? String, "-90", "eg-amp's gain: -90 to 24 dB")
        XCTAssertEqual(report("control")["max"] as? String, "24")
        let keyboard = report("keyboard")["value"] as? Double ?? .nan
        XCTAssertEqual(keyboard, -6)
        XCTAssertEqual(report("keyboard")["text"] as? String, "-6.0 dB")
        XCTAssertEqual(report("keyboard")["second"] as? Double, keyboard, "the second page sees the first's change")
        XCTAssertEqual(report("console")["value"] as? Double, -12)
        XCTAssertEqual(report("console")["second"] as? Double, -12)
        XCTAssertEqual(report("osc")["value"] as? Double, -3)
        XCTAssertEqual(report("osc")["second"] as? Double, -3)
        let pressed = report("drag")["pressed"] as? Double ?? .nan, dragged = report("drag")["dragged"] as? Double ?? .nan
        XCTAssertEqual(report("drag")["held"] as? Double, dragged, "a held slider is not pulled back by another's change")
        XCTAssertNotEqual(dragged, -40)
        XCTAssertEqual(report("released")["value"] as? Double, -40, "once released it shows the change that came last")
        XCTAssertEqual(report("bypass")["on"] as? String, "true")
        XCTAssertEqual(report("bypass")["greyed"] as? Bool, true)
        // The tapped nodes' meters, and learn.
        let tapMeter = 20 * log10(0.5 * pow(10, -6.0 / 20))
        XCTAssertEqual(report("tap meter")["peak"] as? Double ?? 0, tapMeter, accuracy: 0.05, "\(seen)")
        XCTAssertEqual(report("tap meter")["second"] as? Double ?? 0, tapMeter, accuracy: 0.05)
        XCTAssertEqual(report("tap meter")["text"] as? String, String(format: "%.2f dBFS", tapMeter))
        XCTAssertEqual(report("tap meter")["label"] as? String, "amp meter")
        XCTAssertEqual(report("console tap")["peak"] as? Double ?? 0, 20 * log10(0.5), accuracy: 0.05, "\(seen)")
        XCTAssertEqual(report("console tap")["second"] as? Double ?? 0, 20 * log10(0.5), accuracy: 0.05)
        XCTAssertEqual(report("console tap")["label"] as? String, "dc meter")
        XCTAssertEqual(report("console untap")["a"] as? Int, 0)
        XCTAssertEqual(report("console untap")["b"] as? Int, 0)
        XCTAssertEqual(report("console untap")["amp"] as? Int, 1, "amp's tap and meter stay")
        XCTAssertEqual(report("learn")["learning"] as? String, "learning amp:gain: move a MIDI controller to map it")
        XCTAssertEqual(report("learn")["console"] as? String, "mapped { cc: 20, to: amp:gain, channel: 1 }", "\(seen)")
        XCTAssertEqual(report("learn")["page"] as? String, report("learn")["console"] as? String)
        XCTAssertEqual(report("learn")["second"] as? String, report("learn")["console"] as? String)
        let controlled = -90 + 114 * 50 / 127.0
        XCTAssertEqual(report("controller")["value"] as? Double ?? 0, controlled, accuracy: 1e-4, "\(seen)")
        XCTAssertEqual(report("controller")["second"] as? Double ?? 0, controlled, accuracy: 1e-4)
        XCTAssertEqual(report("controller")["text"] as? String, String(format: "%.1f dB", controlled))
        XCTAssertEqual(report("controller")["meter"] as? Double ?? 0, 20 * log10(0.5) + controlled, accuracy: 0.05)
        XCTAssertEqual(report("scene")["value"] as? Double, -20)
        XCTAssertEqual(report("tap")["states"] as? [String], ["recording", "paused", "recording", "stopped"])
        XCTAssertEqual(report("tap")["file"] as? Bool, true)
        XCTAssertEqual(report("exit")["status"] as? Int, 0)

        // The take: each value held at least a quarter second (the keyboard's and
        // the drag's passing values are shorter, or the press's, removed by value).
        func level(_ decibels: Double) -> Float { Float(0.5 * pow(10, decibels / 20)) }
        let runs = LiveRunTests.runs(of: try Audio.read(folder.appendingPathComponent("take.wav").path).channels[0])
            .filter { $0.count >= 12_000 && abs($0.value - level(pressed)) > 1e-6 }.map(\.value)
        let expected = [level(0), level(keyboard), level(-12), level(-3), level(dragged), level(-40), level(0), level(-40),
                        level(controlled), level(-20)]
        XCTAssertEqual(runs.count, expected.count, "\(runs)")
        for (run, value) in zip(runs, expected) { XCTAssertEqual(run, value, accuracy: 1e-6, "\(runs)") }
        XCTAssertEqual(level(keyboard) / level(0), 0.501187, accuracy: 1e-6, "-6 dB is ×0.501187")
        let take = try Audio.read(folder.appendingPathComponent("amp-take.wav").path).channels[0]
        XCTAssertGreaterThan(take.count, 0)
        XCTAssertEqual(take.last ?? 0, level(-20), accuracy: 1e-6, "the page's take records the scene's level")
    }

    /// Each bundled preset on a phone's screen (390×844, touch): the page is
    /// no wider than the screen, every control lies within it, and every
    /// slider, switch and menu is used by touch, the server agreeing.
    func testEveryControlOfThePresetsIsReachedAndUsedByTouchAt390By844() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let presets = ["guitar-crunch", "mastering", "vocal-chain"].map {
            Self.sourceRoot.appendingPathComponent("Presets/\($0).yaml").path
        }
        let seen = try Self.browse("page_phone.py", [Tools.fxhost, server.name] + presets)
        let patches = seen.filter { $0["kind"] as? String == "patch" }
        XCTAssertEqual(patches.count, 3, "\(seen)")
        for patch in patches {
            let name = patch["patch"] as? String ?? "?"
            XCTAssertEqual(patch["width"] as? Int, 390, name)
            XCTAssertEqual((patch["outside"] as? [Any])?.count, 0, "\(name): \(patch["outside"] ?? "")")
            XCTAssertEqual((patch["unused"] as? [Any])?.count, 0, "\(name): \(patch["unused"] ?? "")")
            XCTAssertGreaterThan(patch["sliders"] as? Int ?? 0, 20, name)
            XCTAssertGreaterThan(patch["used"] as? Int ?? 0, patch["sliders"] as? Int ?? 0, "sliders, switches and menus: \(name)")
        }
        XCTAssertEqual(seen.filter { $0["kind"] as? String == "exit" }.map { $0["status"] as? Int }, [0, 0, 0])
    }

    /// Home, End and Page Down move a slider to its ends and by ten steps,
    /// the server agreeing. A refusal is shown where it happened (under the learn button, under
    /// the tempo) in the very sentence the console prints for the same
    /// command; and a page whose server goes away says so, and once another
    /// fxhost listens on the same port it reconnects and shows the new state
    /// (the patch's gain changed to -9 in between). A `set` announced while
    /// the page reads the state anew (the read held in the page until the set
    /// is heard) still shows once the older answer is drawn. A node clicked in the
    /// graph opens its controls; the tempo field, bounce and save act as
    /// their console commands do.
    func testRefusalsShowWhereTheyHappenAndAPageCatchesUpAfterARestart() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        try LiveRunTests.writeAmpPatch(folder, seconds: 60)
        let patch = folder.appendingPathComponent("amp.yaml").path
        let seen = try Self.browse("page_reconnect.py", [Tools.fxhost, patch, server.name])
        func report(_ kind: String) -> [String: Any] { seen.first { $0["kind"] as? String == kind } ?? [:] }
        let page = report("refusals")["page"] as? [String] ?? []
        let console = report("refusals")["console"] as? [String] ?? []
        XCTAssertEqual(page.count, 2, "\(seen)")
        XCTAssertEqual(page, console, "the page shows the console's sentences")
        XCTAssertTrue(page.first?.contains("midi-control") == true, "\(page)")
        XCTAssertTrue(page.last?.contains("5000") == true, "\(page)")
        XCTAssertEqual(report("keys")["home"] as? Double, -90, "Home: eg-amp's minimum")
        XCTAssertEqual(report("keys")["end"] as? Double, 24, "End: its maximum")
        XCTAssertEqual(report("keys")["pagedown"] as? Double, 14, "Page Down: ten 1 dB steps")
        XCTAssertEqual(report("keys")["server"] as? Double, 14)
        XCTAssertEqual(report("held read")["value"] as? Double, -7, "a set heard during a read is not undone by its older answer: \(seen)")
        XCTAssertEqual(report("before")["value"] as? Double, 0)
        XCTAssertEqual(report("first exit")["status"] as? Int, 0)
        XCTAssertEqual(report("after")["value"] as? Double, -9)
        XCTAssertEqual(report("after")["connection"] as? String, "live")
        XCTAssertEqual(report("session")["selected"] as? String, "amp bypass", "a node clicked in the graph: its panel, focused")
        XCTAssertEqual(report("session")["bpm"] as? Int, 150)
        XCTAssertEqual(report("exit")["status"] as? Int, 0)
        // The page's bounce: the patch's 60 s file at the gain then set (-9 dB, ×0.354813).
        let bounced = try Audio.read(folder.appendingPathComponent("page-bounce.wav").path).channels[0]
        XCTAssertGreaterThanOrEqual(bounced.count, 48_000 * 60)
        XCTAssertEqual(bounced.first ?? 0, 0.5 * 0.354813, accuracy: 1e-6)
        // The page's save: over the patch, with the value set last.
        let saved = try String(contentsOfFile: patch, encoding: .utf8)
        XCTAssertTrue(saved.contains("gain: -4"), saved)
    }

    /// Tap tempo, the preset menu and `--watch` from one page. Four
    /// taps 400 ms apart (timed in the page by busy-waiting on
    /// `performance.now`) set 60000 / mean interval BPM: within 0.5 of that
    /// computed from the click times the script reports (the page rounds to
    /// 0.1; its listener reads the clock after the previous click's request
    /// was started, up to about a millisecond later: 0.5 BPM is 1.3 ms over
    /// the span), and within 1 of the nominal 150 (a few ms of jitter
    /// over the 1.2 s span). Choosing mda Detune's "Out Of Tune" in the menu
    /// gives the values of its .ttl, read by the script from the file. An edit
    /// of the patch file shows in the open page.
    func testTapTempoPresetMenuAndWatchReachThePage() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        try Audio.constant([0.5], frames: 48_000 * 60).write(folder.appendingPathComponent("dc.wav").path)
        let patch = folder.appendingPathComponent("amp.yaml").path
        try """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
          det: { plugin: mda/Detune }
          main: { output: 2 }
        chain: [dc, amp, det, main]
        midi-control:
          map: []
        """.write(toFile: patch, atomically: true, encoding: .utf8)
        let seen = try Self.browse("page_session.py", [Tools.fxhost, patch, server.name,
                                                       "/usr/lib/lv2/mda.lv2/Detune-presets.ttl", "Out Of Tune"])
        func report(_ kind: String) -> [String: Any] { seen.first { $0["kind"] as? String == kind } ?? [:] }

        let taps = report("tap tempo")["taps"] as? [Double] ?? []
        XCTAssertEqual(taps.count, 4, "\(seen)")
        let mean = ((taps.last ?? 0) - (taps.first ?? 0)) / 3
        let bpm = report("tap tempo")["bpm"] as? Double ?? .nan
        XCTAssertTrue((20...300).contains(bpm), "\(bpm)")
        XCTAssertEqual(bpm, 60_000 / mean, accuracy: 0.5)
        XCTAssertEqual(bpm, 150, accuracy: 1)
        XCTAssertNotEqual(report("tap tempo")["before"] as? Double, bpm)
        XCTAssertEqual(report("tap tempo")["shown"] as? Double, bpm)

        let expected = report("preset")["expected"] as? [String: Double] ?? [:]
        XCTAssertEqual(expected["detune"], 0.8, "the .ttl read: \(seen)")
        XCTAssertNotEqual(report("preset")["before"] as? [String: Double], expected, "the preset changes something")
        XCTAssertEqual(report("preset")["server"] as? [String: Double], expected)
        XCTAssertEqual(report("preset")["page"] as? [String: Double], expected)

        XCTAssertEqual(report("watch")["value"] as? Double, -9)
        XCTAssertEqual(report("exit")["status"] as? Int, 0)
    }

    // MARK: Support

    static var sourceRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Runs a script of `Tests/Browser` with Debian's Python (where Debian's
    /// Selenium is) and returns its report lines.
    static func browse(_ script: String, _ arguments: [String]) throws -> [[String: Any]] {
        let folder = sourceRoot.appendingPathComponent("Tests/Browser")
        let result = try Tools.run("/usr/bin/python3", [folder.appendingPathComponent(script).path] + arguments)
        XCTAssertEqual(result.status, 0, "the browser script failed (it needs chromium, chromium-driver, python3-selenium and python3-jack-client from scripts/install-deps.sh): "
                       + result.stderr + result.stdout)
        return WebRunTests.lines(result.stdout)
    }

    /// A message parameter's file menu and learn's waiting state, in two
    /// pages. x42's convolver with no IR: the state lists `ir` (a path,
    /// null) and the page a menu of exactly the .wav files written here,
    /// "choose a file" selected. Choosing `ir.wav` (0.5 at frame 0, 0.25 at
    /// frame 100) sets it: the state and both pages show it, and the
    /// constant 0.5 through the convolver becomes its running sum by
    /// arithmetic, 0.5 × 0.5 = 0.25 for exactly 100 frames, then
    /// 0.5 × (0.5 + 0.25) = 0.375 (unit wet gain, dry at -60 off: the
    /// convention MessageParameterRunTests relies on). A text file named
    /// `.wav` chosen from the menu is refused under it in the sentence the
    /// console prints for the same `set`, the menu goes back to `ir.wav`
    /// and 0.375 plays on. Learn pressed in one page shows "waiting…",
    /// `aria-pressed="true"` in both, until a CC from Python's JACK-Client
    /// maps it, which the console's `map` then lists.
    func testFileMenuSetsAnImpulseResponseAndLearnWaitsInEveryPage() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        let takes = try Tools.temporaryFolder(#function + "-takes")
        func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
        try Audio.constant([0.5], frames: 48_000 * 120).write(path("dc.wav"))
        var impulse = [Float](repeating: 0, count: 164)
        impulse[0] = 0.5
        impulse[100] = 0.25
        try Audio(channels: [impulse]).write(path("ir.wav"))
        try "not a sound file\n".write(toFile: path("text.wav"), atomically: true, encoding: .utf8)
        let take = takes.appendingPathComponent("take.wav").path
        try """
        fxhost: 1
        nodes:
          dc: { file: dc.wav }
          amp: { plugin: http://lv2plug.in/plugins/eg-amp, params: { gain: 0 } }
          cab: { plugin: "http://gareus.org/oss/lv2/zeroconvolv#CfgMono" }
          main: { output: 1 }
        chain: [dc, amp, cab, main]
        taps:
          - { at: cab, file: \(take) }
        midi-control:
          map: []
        """.write(toFile: path("cab.yaml"), atomically: true, encoding: .utf8)
        let seen = try Self.browse("page_files.py", [Tools.fxhost, path("cab.yaml"), server.name, "ir.wav", "text.wav", take])
        func report(_ kind: String) -> [String: Any] { seen.first { $0["kind"] as? String == kind } ?? [:] }

        let unset = report("unset")
        let listed = unset["messageParameters"] as? [[String: Any]] ?? []
        XCTAssertEqual(listed.count, 1, "\(seen)")
        XCTAssertEqual(listed.first?["name"] as? String, "ir")
        XCTAssertEqual(listed.first?["kind"] as? String, "path")
        XCTAssertTrue(listed.first?["value"] is NSNull, "null until set: \(listed)")
        XCTAssertEqual((unset["properties"] as? [String: String]) ?? ["?": "?"], [:])
        XCTAssertEqual(unset["tag"] as? String, "select")
        XCTAssertEqual(unset["options"] as? [String], ["", "dc.wav", "ir.wav", "text.wav"], "the placeholder, then the files written here")
        XCTAssertEqual(unset["selected"] as? String, "")
        XCTAssertTrue((unset["placeholder"] as? String ?? "").contains("choose a file"), "\(unset)")

        XCTAssertEqual(report("chosen")["state"] as? String, path("ir.wav"))
        XCTAssertEqual((report("chosen")["listed"] as? [[String: Any]])?.first?["value"] as? String, path("ir.wav"))
        XCTAssertEqual(report("chosen")["first"] as? String, "ir.wav")
        XCTAssertEqual(report("chosen")["second"] as? String, "ir.wav")

        let refusedOnPage = report("refused")["page"] as? String ?? ""
        XCTAssertTrue(refusedOnPage.contains("could not apply `ir`"), refusedOnPage)
        XCTAssertEqual([refusedOnPage], report("refused")["console"] as? [String], "the console's sentence")
        XCTAssertEqual(report("refused")["selected"] as? String, "ir.wav", "back to the file the plugin kept")
        XCTAssertEqual(report("refused")["state"] as? String, path("ir.wav"))

        let learn = report("learn")
        func button(_ phase: String, _ page: String) -> [String: String] {
            (learn[phase] as? [String: Any])?[page] as? [String: String] ?? [:]
        }
        for page in ["first", "second"] {
            XCTAssertEqual(button("before", page), ["text": "learn", "pressed": "false"], page)
            XCTAssertEqual(button("waiting", page)["pressed"], "true", page)
            XCTAssertTrue(button("waiting", page)["text"]?.hasPrefix("waiting") == true, "\(learn)")
            XCTAssertEqual(button("done", page), ["text": "learn", "pressed": "false"], page)
        }
        XCTAssertEqual((learn["waiting"] as? [String: Any])?["learning"] as? String, "amp:gain")
        XCTAssertTrue((learn["done"] as? [String: Any])?["learning"] is NSNull, "\(learn)")
        XCTAssertEqual((learn["done"] as? [String: Any])?["mappings"] as? [String], ["{ cc: 20, to: amp:gain, channel: 1 }"])
        XCTAssertTrue((learn["console"] as? [String])?.first?.contains("{ cc: 20, to: amp:gain") == true, "\(learn)")
        XCTAssertEqual(report("exit")["status"] as? Int, 0)

        // The take: silence with no IR, then the IR's running sum on the constant 0.5.
        let samples = try Audio.read(take).channels[0]
        var runs: [(value: Float, count: Int)] = []
        for sample in samples {
            if let last = runs.last, abs(last.value - sample) < 1e-6 { runs[runs.count - 1].count += 1 } else { runs.append((sample, 1)) }
        }
        let long = runs.filter { $0.count >= 4_800 }.map(\.value)
        XCTAssertEqual(long.count, 2, "\(runs.prefix(20))")
        XCTAssertEqual(long.first ?? .nan, 0, accuracy: 1e-6, "no IR: silence")
        XCTAssertEqual(long.last ?? .nan, 0.375, accuracy: 1e-6, "0.5 × (0.5 + 0.25)")
        XCTAssertEqual(samples.last ?? .nan, 0.375, accuracy: 1e-6, "the refused file changed nothing")
        let rampIndex = runs.firstIndex { abs($0.value - 0.25) < 1e-6 }
        XCTAssertEqual(rampIndex.map { runs[$0].count }, 100, "0.5 × 0.5 until the second tap: \(runs.prefix(20))")
        XCTAssertEqual(rampIndex.map { runs[$0 + 1].value } ?? .nan, 0.375, accuracy: 1e-6)
    }
}
