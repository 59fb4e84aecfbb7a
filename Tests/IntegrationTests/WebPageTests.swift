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
    /// tap's meter and in the take. The tap made in the page is recording,
    /// paused, recording and finished in the server's status after each
    /// button, and the -30 dB played while paused is in neither take; the
    /// take's time and DSP load and xruns in the page match the status read
    /// around them.
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
        // The tap made in the page, as the server's status tells it after each button.
        XCTAssertEqual(report("tap")["states"] as? [String], ["recording", "paused", "recording", "finished"], "\(seen)")
        XCTAssertEqual(report("tap")["file"] as? Bool, true)
        // The take's time in the page lies between the server's before and after it was read, and grows.
        let times = report("tap")["times"] as? [[Double]] ?? []
        XCTAssertEqual(times.count, 2, "\(seen)")
        for time in times where time.count == 3 {
            XCTAssertGreaterThan(time[1], time[0], "\(times)")
            XCTAssertLessThanOrEqual(time[1], time[2] + 0.05, "shown to 0.1 s: \(times)")
        }
        XCTAssertGreaterThan(times.last?[1] ?? 0, times.first?[1] ?? 0, "\(times)")
        // DSP load and xruns, as the page shows them, between two reads of the status.
        let activity = report("activity")
        let before = activity["before"] as? [Double] ?? [], after = activity["after"] as? [Double] ?? []
        let xruns = Double(activity["xruns"] as? String ?? "") ?? .nan
        XCTAssertGreaterThanOrEqual(xruns, before.last ?? .nan, "\(activity)")
        XCTAssertLessThanOrEqual(xruns, after.last ?? .nan, "\(activity)")
        let dsp = Double((activity["dsp"] as? String ?? "").replacingOccurrences(of: " %", with: "")) ?? .nan
        if before.count == 2, after.count == 2 {
            // The load moves between reads; the page shows one of the stream's values, to 0.1.
            let slack = max(abs(before[0] - after[0]), 1.0) + 0.05
            XCTAssertGreaterThanOrEqual(dsp, min(before[0], after[0]) - slack, "\(activity)")
            XCTAssertLessThanOrEqual(dsp, max(before[0], after[0]) + slack, "\(activity)")
        }
        XCTAssertEqual(report("exit")["status"] as? Int, 0)

        // The take: each value held at least a quarter second (the keyboard's and
        // the drag's passing values are shorter, or the press's, removed by value).
        func level(_ decibels: Double) -> Float { Float(0.5 * pow(10, decibels / 20)) }
        let runs = LiveRunTests.runs(of: try Audio.read(folder.appendingPathComponent("take.wav").path).channels[0])
            .filter { $0.count >= 12_000 && abs($0.value - level(pressed)) > 1e-6 }.map(\.value)
        let expected = [level(0), level(keyboard), level(-12), level(-3), level(dragged), level(-40), level(0), level(-40),
                        level(controlled), level(-20), level(-10)]
        XCTAssertEqual(runs.count, expected.count, "\(runs)")
        for (run, value) in zip(runs, expected) { XCTAssertEqual(run, value, accuracy: 1e-6, "\(runs)") }
        XCTAssertEqual(level(keyboard) / level(0), 0.501187, accuracy: 1e-6, "-6 dB is ×0.501187")
        // The page's take: the scene's level, then -10 dB after the resume; the -30 dB played while it was
        // paused is in neither take.
        let take = LiveRunTests.runs(of: try Audio.read(folder.appendingPathComponent("amp-take.wav").path).channels[0])
        XCTAssertEqual(take.count, 2, "\(take)")
        for (run, value) in zip(take, [level(-20), level(-10)]) { XCTAssertEqual(run.value, value, accuracy: 1e-6, "\(take)") }
        let patchTake = try Audio.read(folder.appendingPathComponent("take.wav").path).channels[0]
        XCTAssertFalse(patchTake.contains { abs($0 - level(-30)) < 1e-6 }, "nothing recorded while paused")
    }

    /// Each bundled preset on a phone's screen (390×844, touch), copied with
    /// a scene that bypasses its first plugin: the page is no wider than the
    /// screen, every control lies within it, and every slider, switch,
    /// bypass and menu is used by touch, the server agreeing; a long press
    /// puts a slider back to the default lv2info reads from the plugin's
    /// .ttl; the scene button, a tap's record/pause/resume/stop, tap tempo,
    /// the transport, save, bounce and a preset menu, touched, act on the
    /// server. Every element a keyboard or screen reader reaches has a role
    /// and a name in Chromium's accessibility tree.
    func testEveryControlOfThePresetsIsReachedAndUsedByTouchAt390By844() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        let presets = ["guitar-crunch", "mastering", "vocal-chain"].map {
            Self.sourceRoot.appendingPathComponent("Presets/\($0).yaml").path
        }
        let seen = try Self.browse("page_phone.py", [Tools.fxhost, server.name, folder.path] + presets)
        let patches = seen.filter { $0["kind"] as? String == "patch" }
        XCTAssertEqual(patches.count, 3, "\(seen)")
        let interactive: Set = ["slider", "switch", "combobox", "button", "textbox", "spinbutton"]
        let readouts: Set = ["meter", "image", "alert", "status", "progressbar"]
        var presetMenus = 0, menus = 0
        for patch in patches {
            let name = patch["patch"] as? String ?? "?"
            XCTAssertEqual(patch["width"] as? Int, 390, name)
            XCTAssertEqual((patch["outside"] as? [Any])?.count, 0, "\(name): \(patch["outside"] ?? "")")
            XCTAssertEqual((patch["unused"] as? [Any])?.count, 0, "\(name): \(patch["unused"] ?? "")")
            let kinds = patch["kinds"] as? [String: Int] ?? [:]
            XCTAssertGreaterThan(kinds["slider"] ?? 0, 20, name)
            XCTAssertGreaterThan(kinds["bypass"] ?? 0, 0, name)
            XCTAssertEqual(patch["used"] as? [String: Int], kinds, "each kind, every one of it, by touch: \(name)")
            menus += kinds["menu"] ?? 0
            // The accessibility tree: a role for each, and a name for each control.
            let elements = patch["accessible"] as? [[Any]] ?? []
            XCTAssertGreaterThan(elements.count, kinds.values.reduce(0, +), name)
            // Shown elements: the hidden (an empty refusal, cancel bounce with no bounce) are in no tree.
            for element in elements where element.last as? Bool == true {
                let role = element.count > 1 ? element[1] as? String ?? "" : "", label = element.count > 2 ? element[2] as? String ?? "" : ""
                XCTAssertTrue(interactive.contains(role) || readouts.contains(role), "\(name): \(element)")
                if interactive.contains(role) { XCTAssertFalse(label.isEmpty, "\(name): \(element)") }
            }
            // A long press: the plugin's default.
            let press = patch["longpress"] as? [String: Any] ?? [:]
            let fallback = press["default"] as? Double ?? .nan
            XCTAssertNotEqual(press["pressed"] as? Double, fallback, "\(name): \(press)")
            XCTAssertEqual(press["page"] as? Double ?? .nan, fallback, accuracy: 1e-4, "\(name): \(press)")
            XCTAssertEqual(press["server"] as? Double ?? .nan, fallback, accuracy: 1e-4, "\(name): \(press)")
            // The session's controls by touch, as the server tells them.
            let session = patch["session"] as? [String: Any] ?? [:]
            XCTAssertEqual(session["scene"] as? Bool, true, "the scene bypassed the first plugin: \(name)")
            XCTAssertEqual(session["tap"] as? [String], ["recording", "paused", "recording", "finished"], "\(name): \(session)")
            XCTAssertEqual(session["take"] as? Bool, true, name)
            let tempo = session["tempo"] as? [String: Any] ?? [:], taps = tempo["taps"] as? [Double] ?? []
            XCTAssertEqual(taps.count, 4, name)
            // 60000 / the mean interval between the clicks the touches made, in the browser's clock (ms),
            // within what the way to the server adds to each tap, which the server times as it arrives
            // (`tempo tap`): tens of milliseconds on a loaded machine (12 bpm at 150 is about 100 ms over the span).
            let nominal = 60_000 / (((taps.last ?? 0) - (taps.first ?? 0)) / 3)
            XCTAssertNotEqual(tempo["bpm"] as? Double, tempo["before"] as? Double, name)
            XCTAssertEqual(tempo["bpm"] as? Double ?? 0, nominal, accuracy: 12, "the touches' rhythm: \(name) \(tempo)")
            let transport = session["transport"] as? [Bool] ?? []
            XCTAssertEqual(transport.count, 2, name)
            XCTAssertNotEqual(transport.first, transport.last, "\(name): \(transport)")
            let save = session["save"] as? [String: String] ?? [:]
            XCTAssertNotEqual(save["after"], save["before"], name)
            XCTAssertTrue(save["after"]?.contains("bypass: true") == true, "the scene's bypass saved: \(name)")
            // A bounce of live inputs (unconnected): the tail alone, silence, at least half a second, at most 10 s.
            let bounced = try Audio.read(session["bounce"] as? String ?? "").channels
            XCTAssertGreaterThanOrEqual(bounced.first?.count ?? 0, 24_000, name)
            XCTAssertLessThanOrEqual(bounced.first?.count ?? .max, 480_000, name)
            XCTAssertLessThan(bounced.flatMap { $0 }.map(abs).max() ?? 1, Float(pow(10, -90.0 / 20)), name)
            if let preset = session["preset"] as? [String: Any] {
                presetMenus += 1
                XCTAssertNotEqual(preset["after"] as? [String: Double], preset["before"] as? [String: Double], "\(name): \(preset)")
            }
        }
        XCTAssertGreaterThan(presetMenus, 0, "a preset menu (the first copy's mda Detune): \(seen)")
        XCTAssertGreaterThan(menus, 0, "a menu (the first copy's Calf Filter mode): \(seen)")
        XCTAssertEqual(seen.filter { $0["kind"] as? String == "exit" }.map { $0["status"] as? Int }, [0, 0, 0])
    }

    /// Home, End and Page Down move a slider to its ends and by ten of an
    /// arrow's steps, the server agreeing; a double-click gives the default
    /// lv2info reads from eg-amp's .ttl; Enter on a graph node focused from
    /// the keyboard opens its controls. A refusal is shown where it happened (under the learn button, under
    /// the tempo) in the very sentence the console prints for the same
    /// command; and a page whose server goes away says so, and once another
    /// fxhost listens on the same port it reconnects and shows the new state
    /// (the patch's gain changed to -9 in between). A `set` announced while
    /// the page reads the state anew (the read held in the page until the set
    /// is heard) still shows once the older answer is drawn. A node clicked in the
    /// graph opens its controls; the tempo field, bounce (its progress shown,
    /// the file by arithmetic) and save act as their console commands do.
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
        let keys = report("keys")
        let end = keys["end"] as? Double ?? .nan, arrow = keys["arrow"] as? Double ?? .nan
        let pageDown = keys["pagedown"] as? Double ?? .nan, step = end - arrow
        XCTAssertGreaterThan(step, 0, "a Left Arrow steps down: \(keys)")
        XCTAssertEqual(pageDown, arrow - 10 * step, accuracy: 1e-9, "Page Down: ten of the page's steps: \(keys)")
        XCTAssertEqual(keys["server"] as? Double, pageDown, "the server holds what the slider reports")
        XCTAssertEqual(keys["default"] as? Double, 0, "eg-amp's default gain, as lv2info reads it")
        XCTAssertEqual(keys["doubled"] as? Double, keys["default"] as? Double, "a double-click: the default: \(keys)")
        XCTAssertEqual(keys["doubledServer"] as? Double, keys["default"] as? Double, "\(keys)")
        XCTAssertEqual(report("enter")["focused"] as? String, "amp", "amp's node focused in the graph")
        XCTAssertEqual(report("enter")["panel"] as? String, "amp", "Enter: its controls, focused: \(seen)")
        XCTAssertEqual(report("held read")["value"] as? Double, -7, "a set heard during a read is not undone by its older answer: \(seen)")
        XCTAssertEqual(report("before")["value"] as? Double, 0)
        XCTAssertEqual(report("first exit")["status"] as? Int, 0)
        XCTAssertEqual(report("after")["value"] as? Double, -9)
        XCTAssertEqual(report("after")["connection"] as? String, "live")
        XCTAssertEqual(report("session")["selected"] as? String, "bypass amp", "a node clicked in the graph: its panel, focused")
        XCTAssertEqual(report("session")["bpm"] as? Double, 150, "the server's tempo after the page's 150")
        XCTAssertEqual(report("exit")["status"] as? Int, 0)
        // The page's bounce: the patch's 60 s file at the gain then set (-9 dB, ×0.354813).
        let bounced = try Audio.read(folder.appendingPathComponent("page-bounce.wav").path).channels[0]
        // Then the tail, up to 10 s, ending after half a second below -90 dBFS (silence here).
        XCTAssertGreaterThanOrEqual(bounced.count, 48_000 * 60 + 24_000)
        XCTAssertLessThanOrEqual(bounced.count, 48_000 * 70)
        XCTAssertEqual(bounced.prefix(48_000 * 60).min() ?? 0, Float(0.5 * 0.354813), accuracy: 1e-6)
        XCTAssertEqual(bounced.prefix(48_000 * 60).max() ?? 0, Float(0.5 * 0.354813), accuracy: 1e-6)
        XCTAssertLessThan(bounced.dropFirst(48_000 * 60).map(abs).max() ?? 1, Float(pow(10, -90.0 / 20)))
        // Its progress, shown in the page while it ran: between 0 and 1, never going back.
        let progress = report("bounce")["progress"] as? [Double] ?? []
        XCTAssertTrue(progress.contains { $0 > 0 && $0 < 1 }, "\(progress)")
        XCTAssertEqual(progress, progress.sorted(), "\(progress)")
        // The page's save: over the patch, with the value set last.
        let saved = try String(contentsOfFile: patch, encoding: .utf8)
        XCTAssertTrue(saved.contains("gain: -4"), saved)
    }

    /// A plugin that crashes the engine while a page is open (the crashing
    /// test plugin, made to crash by a command): the page shows the
    /// console's own sentence where it shows alerts and, marked, in its
    /// log, and the restarted session it reads has the culprit bypassed.
    func testACrashShowsInThePageAsOnTheConsole() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let folder = try Tools.temporaryFolder(#function)
        let plugins = try CrashingPlugins.install(in: folder.appendingPathComponent("lv2"))
        try Audio.constant([0.5], frames: 48_000 * 60).write(folder.appendingPathComponent("dc.wav").path)
        let patch = folder.appendingPathComponent("crash.yaml").path
        try """
        fxhost: 1
        nodes:
          dc:  { file: dc.wav }
          bad: { plugin: "\(CrashingPlugins.crashInRun)", params: { after: 1000000 } }
          out: { output: 1 }
        chain: [dc, bad, out]
        """.write(toFile: patch, atomically: true, encoding: .utf8)
        let seen = try Self.browse("page_crash.py", [Tools.fxhost, patch, server.name, plugins.path])
        let crash = seen.first { $0["kind"] as? String == "crash" } ?? [:]
        let console = crash["console"] as? String ?? ""
        XCTAssertTrue(console.hasPrefix("node `bad` (Crashy Effect) crashed in run() (SIGSEGV); the engine restarted without it"),
                      "\(seen)")
        XCTAssertEqual(crash["page"] as? String, console, "the page shows the console's sentence")
        XCTAssertEqual(crash["log"] as? String, "host: " + console, "and logs it, from the host")
        XCTAssertEqual(crash["bypassed"] as? Bool, true)
        XCTAssertEqual(seen.first { $0["kind"] as? String == "exit" }?["status"] as? Int, 0)
    }

    /// Tap tempo, the preset menu and `--watch` from one page. Four
    /// taps at 0, 300, 600 and 1500 ms (timed in the page by busy-waiting on
    /// `performance.now`) set 60000 / mean interval BPM: within 12 of that
    /// computed from the click times the script reports and of the nominal
    /// 60000 / (1500 / 3) = 120 (the server times a tap as it arrives, and a
    /// loaded machine delays one by tens of milliseconds), not the 200 of the first
    /// taps, which the page sent first. Choosing mda Detune's "Out Of Tune" in the menu
    /// gives the values of its .ttl, read by the script from the file. An edit
    /// of the patch file shows in the open page and the server. Calf
    /// Filter's logarithmic freq at its slider's middle is the geometric mean
    /// of its range, in Hz; Calf Phaser's stages take integers; Space on a
    /// switch and Down Arrow on a menu change the server's value.
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
          filt: { plugin: http://calf.sourceforge.net/plugins/Filter }
          ph: { plugin: http://calf.sourceforge.net/plugins/Phaser }
          side: { output: 2 }
        chain: [[dc, amp, det, main], [dc, filt, side], [dc, ph, side]]
        scenes:
          quiet: { amp: { gain: -20 } }
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
        // The server times the taps as they reach it (`tempo tap`): the way there adds a few milliseconds.
        XCTAssertEqual(bpm, 60_000 / mean, accuracy: 12)
        XCTAssertEqual(bpm, 60_000 / (1500.0 / 3), accuracy: 12)
        XCTAssertNotEqual(report("tap tempo")["before"] as? Double, bpm)
        XCTAssertEqual(report("tap tempo")["shown"] as? Double, bpm)

        let expected = report("preset")["expected"] as? [String: Double] ?? [:]
        XCTAssertEqual(expected["detune"], 0.8, "the .ttl read: \(seen)")
        XCTAssertNotEqual(report("preset")["before"] as? [String: Double], expected, "the preset changes something")
        XCTAssertEqual(report("preset")["server"] as? [String: Double], expected)
        XCTAssertEqual(report("preset")["page"] as? [String: Double], expected)

        // Calf Filter's freq: logarithmic, 10 to 20000 Hz: the slider's middle is the geometric mean
        // √(10 × 20000) = 447.21 Hz (a linear slider would give 10005); Calf Phaser's stages are integers.
        let scales = report("scales")
        let frequency = scales["freq"] as? [String: Any] ?? [:], stages = scales["stages"] as? [String: Any] ?? [:]
        XCTAssertEqual(frequency["minimum"] as? String, "10", "\(scales)")
        XCTAssertEqual(frequency["maximum"] as? String, "20000")
        let middle = frequency["page"] as? Double ?? .nan
        XCTAssertEqual(middle, (10 * 20_000.0).squareRoot(), accuracy: 447.21 * 0.005, "\(scales)")
        XCTAssertEqual(frequency["server"] as? Double ?? .nan, middle, accuracy: 1e-3)
        XCTAssertTrue((frequency["text"] as? String ?? "").hasSuffix(" Hz"), "\(scales)")
        let stage = stages["page"] as? Double ?? .nan
        XCTAssertEqual(stage, stage.rounded(), "an integer port takes integers only: \(scales)")
        XCTAssertEqual(stages["server"] as? Double, stage)
        XCTAssertTrue((1...12).contains(stage), "\(scales)")
        let inertia = scales["inertia"] as? [String: Any] ?? [:]
        XCTAssertTrue((inertia["text"] as? String ?? "").hasSuffix(" ms"), "\(scales)")
        // The keyboard: Space on a switch flips the server's value; Down Arrow on a menu takes the next
        // scale point of the .ttl (Calf Filter's mode: 0, 1, …).
        let keys = report("keyboard")
        let flip = keys["switch"] as? [Any] ?? [], next = keys["menu"] as? [Any] ?? []
        XCTAssertEqual(flip.count, 3, "\(seen)")
        XCTAssertEqual((flip.first as? Double).map { 1 - $0 }, flip.dropFirst().first as? Double, "\(keys)")
        XCTAssertEqual(flip.last as? String, (flip.dropFirst().first as? Double) == 1 ? "true" : "false")
        XCTAssertEqual(next.count, 3, "\(seen)")
        XCTAssertEqual((next.first as? Double).map { $0 + 1 }, next.dropFirst().first as? Double, "\(keys)")
        XCTAssertEqual((next.last as? String).flatMap(Double.init), next.dropFirst().first as? Double)

        // The scene's glide from the page, 1 s from 0 to -20 dB on amp: every block of the take between
        // the two levels is the ramp at a block's first frame, -20 × 256k/48000 dB for k = 1, 2, …, 187
        // (the block the glide starts in plays its start), then the scene's level; nothing else.
        XCTAssertEqual(report("glide")["feedback_hidden"] as? Bool, true, "no output: in the patch: \(seen)")
        XCTAssertEqual(report("glide")["state_feedback"] as? Bool, false)
        let glide = try Audio.read(folder.appendingPathComponent("glide.wav").path).channels[0]
        let levels: [Double] = LiveRunTests.runs(of: glide).map { Double($0.value) }
        let ramp: [Double] = levels.filter { $0 < 0.5 - 1e-6 && $0 > 0.05 + 1e-6 }
        // The block's gain in dB over the ramp's -20 dB per 48000 frames, in 256-frame blocks.
        let steps: [Double] = ramp.map { (value: Double) -> Double in -log10(value / 0.5) * 48_000 / 256 }
        XCTAssertEqual(steps.map { $0.rounded() }, (1...187).map(Double.init), "\(steps.prefix(8))…")
        XCTAssertTrue(steps.allSatisfy { abs($0 - $0.rounded()) < 1e-3 }, "each block on the ramp: \(steps.prefix(8))…")
        XCTAssertEqual(Double(glide.last ?? 0), 0.05, accuracy: 1e-6, "ends on the scene's -20 dB")
        XCTAssertEqual(report("watch")["value"] as? Double, -9, "the value the script wrote into the patch")
        XCTAssertEqual(report("watch")["server"] as? Double, -9)
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
