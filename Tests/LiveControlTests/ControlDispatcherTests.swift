import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import Synchronization
import TestSupport
import XCTest

/// The dispatcher on a live session on a private dummy server: a constant 1
/// from a loopback client through eg-amp and back, so the level heard is
/// the gain set, by arithmetic (dB to linear), whoever asked for it.
final class ControlDispatcherTests: XCTestCase {
    private func makeRig(_ name: String = #function) throws -> AmpRig {
        try AmpRig(bufferFrames: 256, folderName: name)
    }

    private func hears(_ rig: AmpRig, decibels: Double) -> Bool {
        eventually(within: 60) { abs((rig.level ?? 0) - Float(Decibels.toLinear(decibels))) < 1e-6 }
    }

    func testACommandFromAnySourceMakesTheSameChangeAndTheSameAnnouncement() throws {
        let rig = try makeRig()
        var heard: [ControlChange] = []
        rig.dispatcher.addListener { heard.append($0) }
        // eg-amp's manifest gives gain a default of 0 dB.
        XCTAssertEqual(rig.session.status().parameters, ["amp": ["gain": 0]], "status starts with the plugin's values")
        let sources: [(ControlSource, Double)] = [(.console, -6), (.osc(sender: "127.0.0.1:9000"), -12),
                                                  (.midi, -18), (.patchFile(path: "live.yaml"), -3)]
        for (source, decibels) in sources {
            let result = try rig.dispatcher.dispatch(.set(node: "amp", parameter: "gain", value: .number(decibels)),
                                                     from: source)
            let expected = ControlChange(.parameter(node: "amp", parameter: "gain", value: Float(decibels)), from: source)
            guard case .changed(let changes) = result else { return XCTFail("\(result)") }
            XCTAssertEqual(changes, [expected])
            XCTAssertEqual(heard.last, expected, "announced as made, with its source")
            XCTAssertTrue(hears(rig, decibels: decibels), "\(source): \(String(describing: rig.level))")
            XCTAssertEqual(rig.session.status().parameters["amp"]?["gain"], Float(decibels), "status shows the value set")
        }
        XCTAssertEqual(heard.count, sources.count)

        // Bypassed, eg-amp passes the constant through whatever its gain.
        try rig.dispatcher.dispatch(.bypass(node: "amp", on: true), from: .midi)
        XCTAssertEqual(heard.last, ControlChange(.bypass(node: "amp", on: true), from: .midi))
        XCTAssertTrue(eventually(within: 60) { rig.level == 1 })
        try rig.dispatcher.dispatch(.bypass(node: "amp", on: false), from: .osc(sender: "127.0.0.1:9000"))
        XCTAssertTrue(hears(rig, decibels: -3))
        XCTAssertEqual(heard.count, sources.count + 2)
        try rig.session.finish()
    }

    /// A gain above +40 dB and a tempo outside 20–300 bpm are refused, from
    /// every front end's own form, with the bound named; nothing changes.
    func testOutOfBoundsGainsAndTemposAreRefusedFromEveryFrontEnd() throws {
        let rig = try makeRig()
        var heard: [ControlChange] = []
        rig.dispatcher.addListener { heard.append($0) }
        func command(console: String? = nil, osc: OSCMessage? = nil, json: String? = nil) throws -> ControlCommand {
            if let console {
                guard case .control(let command, _)? = try ConsoleCommand.parse(console) else { throw ControlTestFailure(console) }
                return command
            }
            if let osc {
                guard case .control(let command) = try OSCRequest(osc) else { throw ControlTestFailure(osc.address) }
                return command
            }
            return try ControlProtocol.command(fromJSON: json!)
        }
        let refused: [(ControlCommand, String)] = [
            (try command(console: "connect in main 1e308dB"), "a gain is at most +40 dB, not +1e+308 dB"),
            (try command(osc: OSCMessage("/fxhost/connect", [.string("in"), .string("main"), .float(1000)])),
             "a gain is at most +40 dB, not +1000 dB"),
            (try command(osc: OSCMessage("/fxhost/connect", [.string("in"), .string("main"), .float(.infinity)])),
             "a gain is a finite number of dB, at most +40 dB, not +inf dB"),
            (try command(osc: OSCMessage("/fxhost/connect", [.string("in"), .string("main"), .float(-.infinity)])),
             "a gain is a finite number of dB, at most +40 dB, not -inf dB"),
            (try command(json: #"{"v": 1, "cmd": "connect", "from": "in", "to": "main", "gainDB": 40.5}"#),
             "a gain is at most +40 dB, not +40.5 dB"),
            (try command(console: "tempo 19.5"), "a tempo is 20 to 300 beats per minute, not 19.5"),
            (try command(osc: OSCMessage("/fxhost/tempo", [.float(301)])), "a tempo is 20 to 300 beats per minute, not 301"),
            (try command(json: #"{"v": 1, "cmd": "tempo", "bpm": 999}"#), "a tempo is 20 to 300 beats per minute, not 999"),
        ]
        for (command, sentence) in refused {
            XCTAssertThrowsError(try rig.dispatcher.dispatch(command, from: .console)) { error in
                XCTAssertEqual("\(error)", sentence, "\(command)")
            }
        }
        XCTAssertEqual(heard, [])
        // At the bounds, accepted.
        try rig.dispatcher.dispatch(.connect(from: PortReference(node: "in"), to: PortReference(node: "main"), gainDecibels: 40),
                                    from: .console)
        try rig.dispatcher.dispatch(.tempo(20), from: .console)
        try rig.dispatcher.dispatch(.tempo(300), from: .console)
        XCTAssertEqual(heard.count, 3)
        try rig.session.finish()
    }

    /// Connecting two ports already connected would sum them (+6 dB): it is
    /// refused, from the console's form and JSON's, and nothing changes.
    func testARepeatedConnectionIsRefused() throws {
        let rig = try makeRig()
        var heard: [ControlChange] = []
        rig.dispatcher.addListener { heard.append($0) }
        guard case .control(let fromConsole, _)? = try ConsoleCommand.parse("connect in amp") else { return XCTFail() }
        let fromJSON = try ControlProtocol.command(fromJSON: #"{"v": 1, "cmd": "connect", "from": "amp", "to": "main", "gainDB": -6}"#)
        for (command, sentence) in [(fromConsole, "`in -> amp` is already connected"),
                                    (fromJSON, "`amp -> main` is already connected")] {
            XCTAssertThrowsError(try rig.dispatcher.dispatch(command, from: .console)) { error in
                XCTAssertEqual("\(error)", sentence)
            }
        }
        XCTAssertEqual(heard, [])
        XCTAssertTrue(hears(rig, decibels: 0), "still one connection: \(String(describing: rig.level))")
        try rig.session.finish()
    }

    func testARefusedCommandAnnouncesNothingAndSaysWhyInTheSessionsWords() throws {
        let rig = try makeRig()
        var heard: [ControlChange] = []
        rig.dispatcher.addListener { heard.append($0) }
        let source = ControlSource.osc(sender: "127.0.0.1:9000")
        let refused: [(ControlCommand, String)] = [
            (.set(node: "amp", parameter: "gian", value: .number(-6)), "has no parameter `gian` (did you mean `gain`?)"),
            (.set(node: "aml", parameter: "gain", value: .number(-6)), "there is no node named `aml`"),
            (.bypass(node: "main", on: true), "node `main` is not a plugin"),
            (.untap(PortReference(node: "amp")), "`amp` has no tap; nothing is being recorded"),
            (.pauseTap(PortReference(node: "amp")), "`amp` has no tap"),
            (.disconnect(from: PortReference(node: "in"), to: PortReference(node: "main")),
             "there is no connection from `in` to `main`"),
            (.cancelBounce, "no bounce is under way"),
            // Only a supervisor leaves nodes out: a session of its own has none to restore.
            (.restore(node: "amp"), "node `amp` was not left out by a crash, so there is nothing to restore"),
            (.restore(node: "amq"), "there is no node named `amq`"),
            (.restore(node: String(repeating: "\u{1b}[2J", count: 10_000)), "there is no node named"),
        ]
        for (command, sentence) in refused {
            XCTAssertThrowsError(try rig.dispatcher.dispatch(command, from: source)) { error in
                guard let error = error as? ControlError else { return XCTFail("\(error)") }
                XCTAssertTrue(error.description.contains(sentence), error.description)
                XCTAssertEqual(error.description, error.reason.description, "the session's sentence, unchanged")
                XCTAssertEqual(error.command, command)
                XCTAssertEqual(error.source, source)
            }
        }
        // Questions change nothing either.
        guard case .status(let status) = try rig.dispatcher.dispatch(.status, from: source) else { return XCTFail() }
        XCTAssertEqual(status.outputs.map(\.node), ["main"])
        guard case .quit = try rig.dispatcher.dispatch(.quit, from: source) else { return XCTFail() }
        XCTAssertEqual(heard, [])

        // The refused set left the gain where it was: the next change is the only one heard.
        try rig.dispatcher.dispatch(.set(node: "amp", parameter: "gain", value: .number(-6)), from: source)
        XCTAssertTrue(hears(rig, decibels: -6))
        XCTAssertEqual(heard, [ControlChange(.parameter(node: "amp", parameter: "gain", value: -6), from: source)])
        try rig.session.finish()
    }

    func testListenersHearEveryChangeInTheOrderItWasMade() throws {
        let rig = try makeRig()
        var first: [ControlChange] = [], second: [ControlChange] = []
        rig.dispatcher.addListener { first.append($0) }
        let secondID = rig.dispatcher.addListener { second.append($0) }
        let take = rig.folder.appendingPathComponent("take.wav").path
        let amp = PortReference(node: "amp"), input = PortReference(node: "in"), main = PortReference(node: "main")

        var results: [ControlChange] = []
        func dispatch(_ command: ControlCommand, from source: ControlSource = .console) throws {
            guard case .changed(let changes) = try rig.dispatcher.dispatch(command, from: source) else {
                return XCTFail("\(command) changed nothing")
            }
            results += changes
        }
        try dispatch(.tap(amp, file: take))
        XCTAssertTrue(eventually(within: 60) { (rig.session.taps.first?.seconds ?? 0) >= 0.2 })
        try dispatch(.pauseTap(amp), from: .midi)
        try dispatch(.resumeTap(amp))
        try dispatch(.connect(from: input, to: main, gainDecibels: -6), from: .osc(sender: "127.0.0.1:9000"))
        // Both paths summed: 1 through eg-amp at 0 dB, plus 10^(-6/20) directly.
        XCTAssertTrue(eventually(within: 60) { abs((rig.level ?? 0) - (1 + Float(Decibels.toLinear(-6)))) < 1e-6 })
        rig.dispatcher.removeListener(secondID)
        try dispatch(.disconnect(from: input, to: main))
        try dispatch(.untap(amp), from: .patchFile(path: "live.yaml"))

        XCTAssertEqual(first, results, "every change, as the commands returned them, in order")
        XCTAssertEqual(second, Array(results.prefix(4)), "nothing after removeListener")
        XCTAssertEqual(first.map(\.source), [.console, .midi, .console, .osc(sender: "127.0.0.1:9000"), .console,
                                             .patchFile(path: "live.yaml")])
        guard first.count == 6 else { return XCTFail("\(first)") }
        XCTAssertEqual(first[0].kind, .tapStarted(amp, file: take))
        guard case .tapPaused(let paused) = first[1].kind, case .tapResumed(let resumed) = first[2].kind,
              case .tapStopped(let stopped) = first[5].kind else { return XCTFail("\(first)") }
        XCTAssertEqual([paused.file, resumed.file, stopped.file], [take, take, take])
        XCTAssertGreaterThan(paused.seconds, 0)
        XCTAssertGreaterThanOrEqual(resumed.seconds, paused.seconds)
        XCTAssertGreaterThanOrEqual(stopped.seconds, resumed.seconds)
        XCTAssertEqual(first[3].kind, .connected(from: input, to: main, gainDecibels: -6))
        XCTAssertEqual(first[4].kind, .disconnected(from: input, to: main))
        XCTAssertTrue(eventually(within: 60) { rig.level == 1 }, "the direct path is gone")
        // The take holds what the tap said it wrote.
        XCTAssertEqual(Double(try Audio.read(take).frames) / 48_000, stopped.seconds, accuracy: 1e-9)
        try rig.session.finish()
    }

    /// Front ends on threads of their own post to the inbox; the session's
    /// thread carries the commands out in the order posted, replies to each
    /// and announces the changes with their sources, and stops at `quit`.
    func testCommandsPostedFromOtherThreadsAreCarriedOutInOrderOnTheSessionsThread() throws {
        let rig = try makeRig()
        var heard: [ControlChange] = []
        rig.dispatcher.addListener { heard.append($0) }
        let inbox = ControlInbox()
        let replies = Mutex<[String]>([])
        let osc = ControlSource.osc(sender: "127.0.0.1:9000")
        let poster = try PosixThread(name: "test poster") {
            inbox.post(.set(node: "amp", parameter: "gain", value: .number(-6)), from: osc) { result in
                replies.withLock { $0.append((try? result.get()).map { "\($0)" } ?? "refused") }
            }
            inbox.post(.set(node: "amp", parameter: "gian", value: .number(-6)), from: osc) { result in
                if case .failure(let error) = result { replies.withLock { $0.append(error.description) } }
            }
            inbox.post(.bypass(node: "amp", on: true), from: .midi)
            inbox.post(.quit, from: osc)
            inbox.post(.bypass(node: "amp", on: false), from: .midi)
        }
        poster.join()
        XCTAssertTrue(inbox.deliver(to: rig.dispatcher), "quit was posted")
        XCTAssertEqual(heard, [ControlChange(.parameter(node: "amp", parameter: "gain", value: -6), from: osc),
                               ControlChange(.bypass(node: "amp", on: true), from: .midi)],
                       "in order, the refused one announcing nothing, nothing after quit")
        let answered = replies.withLock { $0 }
        XCTAssertEqual(answered.count, 2)
        XCTAssertTrue(answered.first?.contains("changed") == true, "\(answered)")
        XCTAssertTrue(answered.last?.contains("has no parameter `gian` (did you mean `gain`?)") == true, "\(answered)")
        XCTAssertTrue(eventually(within: 60) { rig.level == 1 }, "bypassed")
        XCTAssertFalse(inbox.deliver(to: rig.dispatcher), "what came after quit is not carried out")
        XCTAssertEqual(heard.count, 2)
        try rig.session.finish()
    }
}

private struct ControlTestFailure: Error {
    var what: String
    init(_ what: String) { self.what = what }
}
