import Foundation
import HostCore
import JackIO
import LiveControl
import LV2Bridge
import TestSupport
import XCTest

/// `--watch`'s reload on a live session (a constant 1 through eg-amp, so
/// the level heard is the gain by arithmetic): what it changes, what it
/// keeps, what it refuses, and what it announces.
final class LivePatchFileReloadTests: XCTestCase {
    private static let amp = "http://lv2plug.in/plugins/eg-amp"
    /// The rig's graph as a patch file.
    private static let text = """
        fxhost: 1
        nodes:
          in: { input: [loopback:source] }
          amp: { plugin: \(amp) }
          main: { output: [loopback:record_1] }
        chain: [in, amp, main]

        """

    private func hears(_ rig: AmpRig, _ level: Float) -> Bool {
        eventually(within: 60) { abs((rig.level ?? 0) - level) < 1e-6 }
    }

    private func reload(_ rig: AmpRig, _ text: String) throws -> [ControlChange.Kind] {
        guard case .changed(let changes) = try rig.dispatcher.dispatch(.reload(text: text), from: .patchFile(path: "live.yaml"))
        else { XCTFail("a reload answers with its changes"); return [] }
        XCTAssertTrue(changes.allSatisfy { $0.source == .patchFile(path: "live.yaml") })
        return changes.map(\.kind)
    }

    func testAReloadKeepsUnchangedUnitsAddsNodesAndSendsChangedValues() throws {
        let rig = try AmpRig(bufferFrames: 256)
        let path = rig.folder.appendingPathComponent("live.yaml").path
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        rig.dispatcher.patchFile = LivePatchFile(path: path, patch: try PatchParser.parse(text: Self.text, path: path),
                                                 text: Self.text) { reference throws(UnitError) in
            try provider.makeUnit(reference)
        }
        guard case .unit(let amp, _)? = rig.session.graph.node(named: "amp")?.kind else { return XCTFail("no amp") }
        XCTAssertEqual(try reload(rig, Self.text), [], "the same text changes nothing")

        // A node inserted and the amp's gain written: one graph edit, one parameter command.
        let inserted = Self.text
            .replacingOccurrences(of: "amp: { plugin: \(Self.amp) }", with: "amp: { plugin: \(Self.amp), params: { gain: -6 } }")
            .replacingOccurrences(of: "  main:", with: "  trim: { plugin: \(Self.amp), params: { gain: -12 } }\n  main:")
            .replacingOccurrences(of: "[in, amp, main]", with: "[in, amp, trim, main]")
        XCTAssertEqual(try reload(rig, inserted), [.patchReloaded(added: ["trim"], removed: [], rewired: true),
                                                   .parameter(node: "amp", parameter: "gain", value: -6)])
        XCTAssertTrue(hears(rig, Float(Decibels.toLinear(-6)) * Float(Decibels.toLinear(-12))), "\(String(describing: rig.level))")
        guard case .unit(let kept, _)? = rig.session.graph.node(named: "amp")?.kind else { return XCTFail("no amp") }
        XCTAssertTrue(kept === amp, "the unchanged amp keeps its unit, hence its instances and state")

        // The gain no longer written goes back to what loading the file gives (eg-amp's default, 0 dB);
        // the trim removed, bypass written.
        let bypassed = Self.text.replacingOccurrences(of: "amp: { plugin: \(Self.amp) }",
                                                      with: "amp: { plugin: \(Self.amp), bypass: true }")
        XCTAssertEqual(try reload(rig, bypassed), [.patchReloaded(added: [], removed: ["trim"], rewired: true),
                                                   .parameter(node: "amp", parameter: "gain", value: 0),
                                                   .bypass(node: "amp", on: true)])
        XCTAssertEqual(rig.session.parameterValues(node: "amp")["gain"], 0)
        XCTAssertTrue(eventually(within: 60) { rig.session.isBypassed(node: "amp") == true })
        XCTAssertTrue(hears(rig, 1))
        try rig.session.finish()
    }

    func testAReloadThatCannotBeTakenIsRefusedWithItsPlaceAndChangesNothing() throws {
        let rig = try AmpRig(bufferFrames: 256)
        let path = rig.folder.appendingPathComponent("live.yaml").path
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        rig.dispatcher.patchFile = LivePatchFile(path: path, patch: try PatchParser.parse(text: Self.text, path: path),
                                                 text: Self.text) { reference throws(UnitError) in
            try provider.makeUnit(reference)
        }
        var heard: [ControlChange] = []
        rig.dispatcher.addListener { heard.append($0) }
        let graph = rig.session.graph
        let notYAML = Self.text.replacingOccurrences(of: "chain:", with: "chain")
        var parserSays = ""
        XCTAssertThrowsError(try PatchParser.parse(text: notYAML, path: path)) { parserSays = "\($0)" }
        let gainColumn = "  amp: { plugin: \(Self.amp), params: { ".count + 1
        let refusals: [(String, String)] = [
            (notYAML, parserSays),
            (Self.text.replacingOccurrences(of: "loopback:record_1", with: "system:playback_1"),
             "\(path):5:3: node `main`: live inputs, outputs and file sources cannot be added, removed or changed while fxhost runs"),
            (Self.text.replacingOccurrences(of: "amp: { plugin: \(Self.amp) }",
                                            with: "amp: { plugin: \(Self.amp), params: { gain: 40 } }"),
             "\(path):4:\(gainColumn): node `amp`: "),
            (Self.text.replacingOccurrences(of: "  main:", with: "  more: { plugin: no-such-plugin }\n  main:"),
             "\(path):5:19: node `more`: "),
        ]
        for (text, start) in refusals {
            let changes = try reload(rig, text)
            guard changes.count == 1, case .patchRefused(let reason) = changes[0] else { XCTFail("\(changes)"); continue }
            XCTAssertTrue(reason.hasPrefix(start), reason)
            XCTAssertTrue(rig.session.graph === graph, "the running graph is untouched")
        }
        XCTAssertEqual(heard.count, refusals.count, "each refusal is announced")
        XCTAssertEqual(rig.session.parameterValues(node: "amp")["gain"], 0)
        XCTAssertTrue(hears(rig, 1))
        try rig.session.finish()
    }

    /// A plugin node the file adds is made as `fxhost check` makes it, so a
    /// bad preset or value is refused at its own place, not the plugin's.
    func testAnAddedPluginsBadPresetOrValueIsRefusedWhereCheckPutsIt() throws {
        let rig = try AmpRig(bufferFrames: 256)
        let path = rig.folder.appendingPathComponent("live.yaml").path
        let provider = LV2UnitProvider(catalog: PluginCatalog(world: LV2World()))
        rig.dispatcher.patchFile = LivePatchFile(path: path, patch: try PatchParser.parse(text: Self.text, path: path),
                                                 text: Self.text) { reference throws(UnitError) in
            try provider.makeUnit(reference)
        }
        let graph = rig.session.graph
        // The added node is line 5; each column is where the preset's name or the value's key starts.
        let added: [(line: String, column: Int)] = [
            ("  more: { plugin: \(Self.amp), preset: no-such-preset }", "  more: { plugin: \(Self.amp), preset: ".count + 1),
            ("  more: { plugin: \(Self.amp), params: { gain: 40 } }", "  more: { plugin: \(Self.amp), params: { ".count + 1),
        ]
        for (line, column) in added {
            let text = Self.text.replacingOccurrences(of: "  main:", with: "\(line)\n  main:")
            let place = "\(path):5:\(column): node `more`: "
            var checkSays = ""
            XCTAssertThrowsError(try PatchLoader(units: provider).graph(for: try PatchParser.parse(text: text, path: path))) {
                checkSays = "\($0)"
            }
            XCTAssertTrue(checkSays.hasPrefix(place), checkSays)
            let changes = try reload(rig, text)
            guard changes.count == 1, case .patchRefused(let reason) = changes[0] else { XCTFail("\(changes)"); continue }
            XCTAssertTrue(reason.hasPrefix(place), reason)
            XCTAssertEqual(reason, checkSays, "the reload and `check` say the same sentence")
            XCTAssertTrue(rig.session.graph === graph, "the running graph is untouched")
        }
        try rig.session.finish()
    }
}
