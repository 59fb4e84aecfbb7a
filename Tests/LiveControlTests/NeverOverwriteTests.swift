import Foundation
import HostCore
import JackIO
@testable import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// No take is ever overwritten: a live tap to an existing file takes the
/// next numbered name; `save FILE` and `bounce FILE` refuse an existing
/// file unless forced; paths from OSC stay inside one folder.
final class NeverOverwriteTests: XCTestCase {
    private let amp = PortReference(node: "amp")

    private func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    private func changes(_ result: ControlResult) -> [ControlChange.Kind] {
        guard case .changed(let changes) = result else { return [] }
        return changes.map(\.kind)
    }

    private func refusal(_ rig: AmpRig, _ command: ControlCommand, from source: ControlSource) -> String? {
        do {
            _ = try rig.dispatcher.dispatch(command, from: source)
            return nil
        } catch {
            return error.description
        }
    }

    /// `untap` then `tap` to the same file: the first take is kept byte for
    /// byte and the second goes to `take-2.wav`, as announced and in `status`.
    func testUntapThenTapTheSameFileKeepsTheFirstTake() throws {
        let rig = try AmpRig(bufferFrames: 256)
        let take = rig.folder.appendingPathComponent("take1.wav").path
        let second = rig.folder.appendingPathComponent("take1-2.wav").path
        XCTAssertEqual(changes(try rig.dispatcher.dispatch(.tap(amp, file: take), from: .console)),
                       [.tapStarted(amp, file: take)])
        XCTAssertTrue(eventually(within: 60) { (rig.session.taps.first?.seconds ?? 0) >= 0.2 })
        _ = try rig.dispatcher.dispatch(.untap(amp), from: .console)
        let first = try bytes(take)
        XCTAssertGreaterThan(first.count, 44)

        XCTAssertEqual(changes(try rig.dispatcher.dispatch(.tap(amp, file: take), from: .console)),
                       [.tapStarted(amp, file: second)], "the change names the file written")
        XCTAssertEqual(rig.session.status().taps.last?.file, second)
        XCTAssertTrue(eventually(within: 60) { (rig.session.taps.last?.seconds ?? 0) >= 0.2 })
        guard case .tapStopped(let stopped)? = changes(try rig.dispatcher.dispatch(.untap(amp), from: .console)).first else {
            return XCTFail("no tapStopped")
        }
        XCTAssertEqual(stopped.file, second)
        XCTAssertEqual(try bytes(take), first, "the first take is as it was")
        XCTAssertEqual(Double(try Audio.read(second).frames) / 48_000, stopped.seconds, accuracy: 1e-9)
        try rig.session.finish()
    }

    /// A tap the graph declares when the session opens (a patch's `taps:`,
    /// `--tap`) whose file exists: the file is kept, the take numbered.
    func testATapDeclaredAtStartDoesNotOverwriteAnExistingFile() throws {
        let server = try JackServerProcess(sampleRate: 48_000, bufferFrames: 256)
        let loopback = try LoopbackClient(server: server.name, constant: 1, channels: 1, capacity: 48_000 * 10)
        defer { loopback.client.close() }
        let folder = try temporaryFolder()
        let take = folder.appendingPathComponent("take1.wav").path
        let earlier = Data("an earlier take, 1:39 of it".utf8)
        try earlier.write(to: URL(fileURLWithPath: take))
        let graph = try AmpRig.graph()
        try graph.installTap(on: graph.node(named: "amp")!, file: take)
        let session = try LiveSession(graph: graph, options: LiveSession.Options(server: server))
        try session.start()
        try session.connectPorts()
        XCTAssertEqual(session.status().taps.map(\.file), [folder.appendingPathComponent("take1-2.wav").path])
        XCTAssertTrue(eventually(within: 60) { (session.taps.first?.seconds ?? 0) >= 0.1 })
        try session.finish()
        session.client.close()
        XCTAssertEqual(try bytes(take), earlier)
        XCTAssertGreaterThan(try Audio.read(folder.appendingPathComponent("take1-2.wav").path).frames, 0)
    }

    /// Paths from OSC: relative, no `..`, no symbolic link out, and the
    /// extensions the command writes; the console is not confined.
    func testPathsFromOSCAreConfinedToTheFolder() throws {
        let rig = try AmpRig(bufferFrames: 256)
        let osc = ControlSource.osc(sender: "127.0.0.1:9000")
        let folder = rig.folder.path
        rig.dispatcher.remoteFolder = folder
        let outside = try temporaryFolder("\(name)-outside")
        try FileManager.default.createSymbolicLink(atPath: rig.folder.appendingPathComponent("out").path,
                                                   withDestinationPath: outside.path)
        let victim = rig.folder.appendingPathComponent("victim.txt").path
        try "keep me\n".write(toFile: victim, atomically: true, encoding: .utf8)

        XCTAssertEqual(refusal(rig, .tap(amp, file: "../x.wav"), from: osc),
                       "`../x.wav` is refused: a remote front end may not use `..` to leave \(folder)")
        XCTAssertEqual(refusal(rig, .tap(amp, file: outside.appendingPathComponent("x.wav").path), from: osc),
                       "`\(outside.appendingPathComponent("x.wav").path)` is refused: a remote front end names files relative to \(folder), not absolute paths")
        XCTAssertEqual(refusal(rig, .tap(amp, file: "out/x.wav"), from: osc),
                       "`out/x.wav` is refused: a symbolic link in it leads out of \(folder)")
        XCTAssertEqual(refusal(rig, .tap(amp, file: "victim.txt"), from: osc),
                       "`victim.txt` is refused: this command takes an audio file fxhost writes (.wav .rf64 .flac .ogg .oga .opus .mp3) from a remote front end")
        let save = try OSCRequest(OSCMessage("/fxhost/save", [.string("victim.txt")]))
        guard case .control(let saveCommand) = save else { return XCTFail("\(save)") }
        XCTAssertEqual(refusal(rig, saveCommand, from: osc),
                       "`victim.txt` is refused: this command takes a patch (.yaml .yml) from a remote front end")
        XCTAssertEqual(try String(contentsOfFile: victim, encoding: .utf8), "keep me\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outside.path), [], "nothing written outside")
        XCTAssertTrue(rig.session.status().taps.isEmpty, "no tap started")

        // Inside the folder, relative: resolved there.
        XCTAssertEqual(changes(try rig.dispatcher.dispatch(.tap(amp, file: "takes-ok.wav"), from: osc)),
                       [.tapStarted(amp, file: folder + "/takes-ok.wav")])
        _ = try rig.dispatcher.dispatch(.untap(amp), from: osc)
        try rig.session.finish()
    }

    /// `save FILE` over an existing file: refused without force, written with it.
    func testSaveRefusesAnExistingFileUnlessForced() throws {
        let rig = try AmpRig(bufferFrames: 256)
        let path = rig.folder.appendingPathComponent("live.yaml").path
        let text = """
            fxhost: 1
            nodes:
              in: { input: [loopback:source] }
              amp: { plugin: "http://lv2plug.in/plugins/eg-amp" }
              main: { output: [loopback:record_1] }
            chain: [in, amp, main]

            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        rig.dispatcher.patchFile = LivePatchFile(path: path, patch: try PatchParser.parse(text: text, path: path),
                                                 text: text) { reference throws(UnitError) in
            try provider.makeUnit(reference)
        }
        let existing = rig.folder.appendingPathComponent("existing.yaml").path
        try "# mine\n".write(toFile: existing, atomically: true, encoding: .utf8)
        XCTAssertEqual(refusal(rig, .save(file: existing), from: .console),
                       "`\(existing)` exists; `save` replaces a file only when forced (`save \(existing) --force`)")
        XCTAssertEqual(try String(contentsOfFile: existing, encoding: .utf8), "# mine\n")
        XCTAssertEqual(try ConsoleCommand.parse("save existing.yaml --force"), .control(.save(file: "existing.yaml", force: true), answer: .text))
        XCTAssertNil(refusal(rig, .save(file: existing, force: true), from: .console))
        XCTAssertTrue(try String(contentsOfFile: existing, encoding: .utf8).contains("eg-amp"))
        XCTAssertNil(refusal(rig, .save(file: nil), from: .console), "save over the loaded patch, as before")
        let mix = rig.folder.appendingPathComponent("mix.wav").path
        try Data("an earlier mix".utf8).write(to: URL(fileURLWithPath: mix))
        XCTAssertEqual(refusal(rig, .bounce(file: mix, from: 0, to: 1), from: .console),
                       "`\(mix)` exists; `bounce` replaces a file only when forced (`bounce \(mix) --force`)")
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: mix)), Data("an earlier mix".utf8))
        try rig.session.finish()
    }
}
