import XCTest
@testable import HostCore

/// `save` over a patch's own text: values edited where they are written,
/// comments and layout kept, sections whose structure changed written anew;
/// the expected texts are written out by hand.
final class PatchTextEditorTests: XCTestCase {
    private let text = """
        # A constant through an amp.
        fxhost: 1
        nodes:
          dc: { file: dc.wav }          # the source
          amp:
            plugin: http://lv2plug.in/plugins/eg-amp
            params:
              gain: 0      # unity, for now
          drive: { plugin: mda/Overdrive, params: { drive: 0.5 } }
          main: { output: 1 }
        # the signal path
        chain: [dc, amp, drive, main]
        taps:
          - { at: amp, file: take.wav }   # the take
        # end

        """

    private func edited(_ change: (inout Patch) -> Void) throws -> String {
        var patch = try PatchParser.parse(text: text, path: "p.yaml")
        change(&patch)
        let result = PatchTextEditor.edit(text, path: "p.yaml", to: patch)
        XCTAssertEqual(withoutLocations(try PatchParser.parse(text: result, path: "p.yaml")), withoutLocations(patch),
                       "the edited text reads back as the patch it was meant to say")
        return result
    }

    private func setPlugin(_ patch: inout Patch, _ node: String, _ change: (inout PluginNodeSpec) -> Void) {
        let index = patch.nodes.firstIndex { $0.name == node }!
        guard case .plugin(var spec) = patch.nodes[index].kind else { return XCTFail("\(node) is not a plugin") }
        change(&spec)
        patch.nodes[index].kind = .plugin(spec)
    }

    func testAValueChangedInPlaceKeepsEveryComment() throws {
        let result = try edited { patch in
            setPlugin(&patch, "amp") { $0.parameters[0].value = .number(-6) }
            setPlugin(&patch, "drive") { $0.parameters[0].value = .number(0.25) }
        }
        XCTAssertEqual(result, text.replacingOccurrences(of: "gain: 0      # unity", with: "gain: -6      # unity")
            .replacingOccurrences(of: "{ drive: 0.5 }", with: "{ drive: 0.25 }"))
    }

    func testMissingEntriesAreInsertedInTheMappingsOwnStyle() throws {
        let result = try edited { patch in
            setPlugin(&patch, "amp") {
                $0.parameters.append(ParameterSetting(symbol: "extra", value: .number(0.501187)))
                $0.bypass = true
            }
            setPlugin(&patch, "drive") {
                $0.parameters.append(ParameterSetting(symbol: "muffle", value: .number(0.3)))
                $0.bypass = true
            }
        }
        XCTAssertEqual(result, text
            .replacingOccurrences(of: "      gain: 0      # unity, for now\n",
                                  with: "      gain: 0      # unity, for now\n      extra: 0.501187\n    bypass: true\n")
            .replacingOccurrences(of: "params: { drive: 0.5 } }", with: "params: { drive: 0.5, muffle: 0.3 }, bypass: true }"))
    }

    func testRewiringRewritesOnlyTheWiringAndKeepsTheChainThatStillHolds() throws {
        let result = try edited { patch in
            patch.connections.append(ConnectionDeclaration(from: PortReference(node: "dc"), to: PortReference(node: "main"),
                                                           gainDecibels: -6))
        }
        XCTAssertEqual(result, text.replacingOccurrences(
            of: "chain: [dc, amp, drive, main]\n",
            with: "chain: [dc, amp, drive, main]\nconnect:\n  - { from: dc, to: main, gain: -6dB }\n"))

        let unchained = try edited { patch in patch.connections.remove(at: 1) }
        XCTAssertEqual(unchained, text.replacingOccurrences(
            of: "chain: [dc, amp, drive, main]\n", with: "connect:\n  - dc -> amp\n  - drive -> main\n"))
    }

    func testChangedTapsAndANewSectionAreWrittenAnew() throws {
        var patch = try PatchParser.parse(text: text, path: "p.yaml")
        patch.taps.append(TapDeclaration(at: PortReference(node: "main", port: .channel(1)), file: "main one.wav"))
        let result = PatchTextEditor.edit(text, path: "p.yaml", to: patch, extraSections: [
            PatchSection(key: "scenes", lines: ["scenes:", "  quiet: { amp: { gain: -12 } }"])])
        XCTAssertEqual(result, text.replacingOccurrences(
            of: "  - { at: amp, file: take.wav }   # the take\n",
            with: "  - { at: amp, file: take.wav }\n  - { at: main:1, file: \"main one.wav\" }\n")
            + "scenes:\n  quiet: { amp: { gain: -12 } }\n")
    }

    func testAddedNodesRewriteTheNodesSection() throws {
        let result = try edited { patch in
            patch.nodes.insert(NodeDeclaration(name: "trim", kind: .gain(decibels: -3)), at: 3)
        }
        XCTAssertTrue(result.hasPrefix("# A constant through an amp.\nfxhost: 1\nnodes:\n  dc: { file: dc.wav }\n"), result)
        XCTAssertTrue(result.contains("  trim: { gain: -3dB }\n  main: { output: 1 }\n# the signal path\n"), result)
    }

    func testAFlowRootIsWrittenWhole() throws {
        let flow = "{ fxhost: 1, nodes: { a: { input: 1 }, b: { output: 1 } }, chain: [a, b] }\n"
        var patch = try PatchParser.parse(text: flow, path: "p.yaml")
        patch.nodes[0].kind = .input(.channels(1))
        XCTAssertEqual(PatchTextEditor.edit(flow, path: "p.yaml", to: patch),
                       "fxhost: 1\nnodes:\n  a: { input: 1 }\n  b: { output: 1 }\nconnect:\n  - a -> b\n")
    }

    /// A file with a byte-order mark and CRLF line ends keeps both; a quoted
    /// label is replaced whole, quotes included.
    func testLineEndsAByteOrderMarkAndQuotedValuesSurvive() throws {
        let original = "\u{FEFF}fxhost: 1\r\nnodes:\r\n  a: { input: 1 }\r\n"
            + "  f: { plugin: x, params: { mode: \"Low pass\" } }  # filter\r\n"
            + "  b: { output: 1 }\r\nchain: [a, f, b]\r\n"
        var patch = try PatchParser.parse(text: original, path: "p.yaml")
        setPlugin(&patch, "f") {
            $0.parameters[0].value = .number(2)
            $0.bypass = true
        }
        XCTAssertEqual(PatchTextEditor.edit(original, path: "p.yaml", to: patch),
                       original.replacingOccurrences(of: "{ mode: \"Low pass\" } }", with: "{ mode: 2 }, bypass: true }"))
    }
}
