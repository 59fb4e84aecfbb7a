import XCTest
@testable import HostCore

/// Malformed patches, each with the exact message expected. Positions are
/// 1-based line:column of the offending text, counted by hand from the YAML
/// written in each test.
final class PatchParserErrorTests: XCTestCase {
    private let kinds = "`plugin`, `file`, `input`, `output`, `mix`, `gain`, `midi-input`, `midi-file` or `midi-output`"

    // MARK: - The document and its top level

    func testEmptyFile() {
        XCTAssertEqual(patchFailure(""), "p.yaml:1:1: patch file is empty; it needs at least `fxhost: 1` and some nodes")
        XCTAssertEqual(patchFailure("# only a comment\n"),
                       "p.yaml:1:1: patch file is empty; it needs at least `fxhost: 1` and some nodes")
    }

    func testRootMustBeAMapping() {
        XCTAssertEqual(patchFailure("- fxhost\n- 1\n"), "p.yaml:1:1: the patch must be a mapping of `key: value` pairs, got a list")
    }

    func testMissingVersion() {
        XCTAssertEqual(patchFailure("""
            name: x
            nodes:
              bus: { mix: 2 }
            """), "p.yaml:1:1: missing `fxhost: 1` (the patch format version) at the top of the patch")
    }

    func testUnsupportedVersion() {
        XCTAssertEqual(patchFailure("fxhost: 2\n"), "p.yaml:1:9: unsupported patch format version 2; this fxhost reads version 1")
    }

    func testVersionNotANumber() {
        XCTAssertEqual(patchFailure("fxhost: one\n"), "p.yaml:1:9: `fxhost` must be the patch format version 1, got \"one\"")
    }

    func testUnknownTopLevelKey() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            node:
              bus: { mix: 2 }
            """), "p.yaml:2:1: unknown key `node` in the patch (did you mean `nodes`?)")
    }

    func testMissingNodes() {
        XCTAssertEqual(patchFailure("fxhost: 1\nname: x\n"),
                       "p.yaml:1:1: missing `nodes`; a patch declares its nodes under `nodes:`")
    }

    func testNodesEmpty() {
        XCTAssertEqual(patchFailure("fxhost: 1\nnodes: {}\n"), "p.yaml:2:8: `nodes` is empty; a patch needs at least one node")
    }

    func testNameMustBeText() {
        XCTAssertEqual(patchFailure("fxhost: 1\nname: [a, b]\n"), "p.yaml:2:7: `name` must be text, got a list")
    }

    /// A repeated key is reported where it is repeated (the line that is
    /// wrong), naming the line of the first.
    func testDuplicateNode() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              bus: { mix: 2 }
              bus: { mix: 1 }
            """), "p.yaml:4:3: duplicate key `bus` in `nodes`; each key may be given once (first on line 3)")
    }

    func testDuplicateKeysAreReportedAtTheRepeatWhereverTheyAre() {
        // The root mapping, a quoted first occurrence.
        XCTAssertEqual(patchFailure("""
            "fxhost": 1
            nodes:
              bus: { mix: 2 }
            fxhost: 1
            """), "p.yaml:4:1: duplicate key `fxhost` in the patch; each key may be given once (first on line 1)")
        // A flow mapping on one line: the repeat's column.
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drive: { plugin: mda/Overdrive, plugin: mda/Delay }
            """), "p.yaml:3:35: duplicate key `plugin` in node `drive`; each key may be given once (first on line 3)")
        // Three times: the second is the first repeat.
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drive:
                plugin: mda/Overdrive
                params:
                  drive: 0.1
                  muffle: 0.2
                  drive: 0.3
                  drive: 0.4
            """), "p.yaml:8:7: duplicate key `drive` in `params` of node `drive`; each key may be given once (first on line 6)")
        // Repeats in two mappings: the first mapping Yams refuses is reported, not confused with the second.
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              a: { mix: 1, mix: 2 }
              b:
                mix: 1
                mix: 2
            connect:
              - { from: a, from: b, to: a }
            """), "p.yaml:3:16: duplicate key `mix` in node `a`; each key may be given once (first on line 3)")
    }

    func testDuplicateNodeSpelledDifferently() {
        // Yams sees a boolean and a string; as node names both are `true`.
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              true: { mix: 2 }
              'true': { mix: 1 }
            """), "p.yaml:4:3: duplicate key `true` in `nodes`; each key may be given once (first on line 3)")
    }

    func testUnquotedWildcardIsAnAlias() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drums: { file: *.wav }
            """), "p.yaml:3:18: YAML anchors and aliases are not allowed in patches (found `*.wav`); write the value out in full, or quote it if it is text")
    }

    func testYAMLSyntaxError() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              bus: { mix: 2 ]
            """), "p.yaml:3:17: invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping that starts at line 3, column 8)")
    }

    func testSecondDocument() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes: { bus: { mix: 2 } }
            ---
            fxhost: 1
            """), "p.yaml:3:1: a patch file holds one YAML document, but a second one starts here")
    }

    func testTabIndentation() {
        XCTAssertEqual(patchFailure("fxhost: 1\nnodes:\n\tbus: { mix: 2 }\n"),
                       "p.yaml:3:1: invalid YAML: a tab cannot indent or start a value; use spaces")
    }

    func testByteOrderMarkIsIgnored() {
        XCTAssertEqual(patchFailure("\u{FEFF}fxhost: 1\nnodes: { bus: { mix: 0 } }\n"), "p.yaml:2:22: `mix` must be at least 1 channel, got 0")
    }

    func testNodeMustBeAMapping() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drive: mda/Overdrive
            """), "p.yaml:3:10: node `drive` must be a mapping of `key: value` pairs, got \"mda/Overdrive\"")
    }

    // MARK: - Nodes

    func testInvalidNodeName() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              2x: { mix: 2 }
            """), "p.yaml:3:3: invalid node name `2x`; node names start with a letter or `_` and contain only letters, digits, `_` and `-`")
    }

    func testEmptyNode() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              a: {}
              b:
            """), "p.yaml:3:3: node `a` is empty; give it one of \(kinds)")
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              b:
            """), "p.yaml:3:3: node `b` is empty; give it one of \(kinds)")
    }

    func testNodeWithoutKind() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drive: { params: { drive: 1 } }
            """), "p.yaml:3:3: node `drive` has no kind; give it one of \(kinds)")
    }

    func testNodeWithTwoKinds() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              x: { plugin: a, file: b.wav }
            """), "p.yaml:3:19: node `x` has two kinds, `plugin` and `file`; give it exactly one")
    }

    func testMisspeltKindIsAnUnknownKey() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drive: { plugn: mda/Overdrive }
            """), "p.yaml:3:12: unknown key `plugn` in node `drive` (did you mean `plugin`?)")
    }

    func testUnknownNodeKey() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drive:
                plugin: mda/Overdrive
                parms: { drive: 0.5 }
            """), "p.yaml:5:5: unknown key `parms` in node `drive` (did you mean `params`?)")
    }

    func testKeyOfAnotherKind() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drums: { file: d.wav, params: { a: 1 } }
            """), "p.yaml:3:25: `params` does not apply to node `drums`, which is a `file` node")
    }

    func testMixNotANumber() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              bus: { mix: two }
            """), "p.yaml:3:15: `mix` must be a whole number of channels, got \"two\"")
    }

    func testNegativeChannelCount() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              bus: { mix: -2 }
            """), "p.yaml:3:15: `mix` must be at least 1 channel, got -2")
    }

    func testZeroInputChannels() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              in: { input: 0 }
            """), "p.yaml:3:16: `input` must be at least 1 channel, got 0")
    }

    func testTooManyChannels() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              bus: { mix: 100000 }
            """), "p.yaml:3:15: `mix` of 100000 channels is more than the 256 fxhost handles")
    }

    func testInputNeitherPortsNorCount() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              in: { input: system }
            """), "p.yaml:3:16: `input` must be a list of JACK port names or a whole number of channels, got \"system\"")
    }

    func testOutputPortMustBeAName() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              out: { output: [system:playback_1, [x]] }
            """), "p.yaml:3:38: `output` ports must be JACK port names such as `system:playback_1`, got a list")
    }

    func testBadGainUnit() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drums: { file: d.wav, gain: -3dbx }
            """), "p.yaml:3:31: `gain` must be a gain in dB such as `-3dB`, got \"-3dbx\"")
    }

    func testBadStartTime() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              vox:
                file: vox.wav
                start: 2 minutes
            """), "p.yaml:5:12: `start` must be a time such as `1.5s` or `250ms`, got \"2 minutes\"")
    }

    func testNegativeStartTime() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              vox: { file: vox.wav, start: -1s }
            """), "p.yaml:3:32: `start` must not be negative, got \"-1s\"")
    }

    func testPanOutOfRange() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              vox: { file: vox.wav, pan: 1.5 }
            """), "p.yaml:3:30: `pan` must be between -1 (left) and 1 (right), got 1.5")
    }

    func testParameterOfWrongType() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              d:
                plugin: mda/Overdrive
                params: { drive: [1, 2] }
            """), "p.yaml:5:22: parameter `drive` of node `d` must be a number, true/false or a label, got a list")
    }

    func testParameterSymbolSyntax() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              d:
                plugin: mda/Overdrive
                params: { dri-ve: 1 }
            """), "p.yaml:5:15: `dri-ve` is not a port symbol; symbols contain only letters, digits and `_`")
    }

    /// A message parameter may be named by its full URI (quoted: it has a `:`);
    /// a URI with a space is still no name.
    func testParameterNamedByAURI() throws {
        let patch = try PatchParser.parse(text: """
            fxhost: 1
            nodes:
              cab:
                plugin: zeroconvolv#CfgMono
                params: { "http://gareus.org/oss/lv2/zeroconvolv#ir": irs/cab.wav }
            """, path: "p.yaml")
        guard case .plugin(let spec) = patch.nodes[0].kind else { return XCTFail("a plugin node") }
        XCTAssertEqual(spec.parameters.map(\.symbol), ["http://gareus.org/oss/lv2/zeroconvolv#ir"])
        XCTAssertEqual(spec.parameters.map(\.value), [.label("irs/cab.wav")])
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              d:
                plugin: mda/Overdrive
                params: { "urn:x y": 1 }
            """), "p.yaml:5:15: `urn:x y` is not a port symbol; symbols contain only letters, digits and `_`")
    }

    func testBypassNotABoolean() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              d: { plugin: mda/Overdrive, bypass: maybe }
            """), "p.yaml:3:39: `bypass` must be true or false, got \"maybe\"")
    }

    func testPluginMustBeNamed() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              d: { plugin: }
            """), "p.yaml:3:16: `plugin` must be a plugin URI or short name such as `mda/Overdrive`, got nothing")
    }

    // MARK: - Chains, connections, taps

    private let twoBuses = """
        fxhost: 1
        nodes:
          bus: { mix: 2 }
          out: { output: 2 }

        """

    func testUnknownNodeInChain() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drive: { plugin: mda/Overdrive }
              out: { output: 2 }
            chain: [drvie, out]
            """), "p.yaml:5:9: unknown node `drvie` in chain (did you mean `drive`?)")
    }

    func testChainOfOne() {
        XCTAssertEqual(patchFailure(twoBuses + "chain: [bus]\n"), "p.yaml:5:8: a chain needs at least two nodes to connect, got 1")
    }

    func testSecondChainOfOne() {
        XCTAssertEqual(patchFailure(twoBuses + "chain: [[bus, out], [bus]]\n"), "p.yaml:5:21: a chain needs at least two nodes to connect, got 1")
    }

    func testChainEntryMustBeAName() {
        XCTAssertEqual(patchFailure(twoBuses + "chain: [bus, { to: out }]\n"),
                       "p.yaml:5:14: chain entries must be node names, got a mapping")
    }

    func testUnknownNodeInConnection() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - bus -> outt
            """), "p.yaml:6:12: unknown node `outt` in connection (did you mean `out`?)")
    }

    func testUnknownNodeWithoutSuggestion() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - bus -> reverb
            """), "p.yaml:6:12: unknown node `reverb` in connection")
    }

    func testMalformedConnectionString() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - bus > out
            """), "p.yaml:6:5: malformed connection `bus > out`; write `from -> to`, e.g. `drive -> out`")
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - bus -> out -> bus
            """), "p.yaml:6:5: malformed connection `bus -> out -> bus`; write `from -> to`, e.g. `drive -> out`")
    }

    func testChannelZero() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - bus:0 -> out
            """), "p.yaml:6:5: malformed port `bus:0` in connection: channels are counted from 1")
    }

    func testMalformedPortSelector() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - bus -> out:left-1
            """), "p.yaml:6:12: malformed port `out:left-1` in connection: `left-1` is neither a channel number nor a port symbol")
    }

    func testSelfConnection() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - bus -> bus
            """), "p.yaml:6:5: node `bus` is connected to itself")
    }

    func testCycle() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              a: { gain: 0 }
              b: { gain: 0 }
              c: { gain: 0 }
            connect:
              - a -> b
              - b -> c
              - c -> a
            """), "p.yaml:9:5: cycle: a -> b -> c -> a")
    }

    func testCycleNamesOnlyTheNodesOnIt() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              a: { gain: 0 }
              b: { gain: 0 }
              c: { gain: 0 }
              d: { gain: 0 }
            chain: [a, b, c, d]
            connect:
              - d -> c
              - c -> b
            """), "p.yaml:9:5: cycle: c -> d -> c")
    }

    func testCrlfLineEnds() {
        XCTAssertEqual(patchFailure("fxhost: 1\r\nnodes:\r\n  a: &x { mix: 2 }\r\n"),
                       "p.yaml:3:6: YAML anchors and aliases are not allowed in patches (found `&x`); write the value out in full, or quote it if it is text")
        XCTAssertEqual(patchFailure("fxhost: 1\r\nnodes:\r\n  a: { mix: 0 }\r\n"), "p.yaml:3:13: `mix` must be at least 1 channel, got 0")
    }

    func testCycleThroughChainAndConnect() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              a: { gain: 0 }
              b: { gain: -6dB }
            chain: [a, b]
            connect:
              - { from: b, to: a, gain: -20dB }
            """), "p.yaml:7:5: cycle: a -> b -> a")
    }

    func testConnectionIntoAFilePlayer() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drums: { file: d.wav }
              bus: { mix: 2 }
            connect:
              - bus -> drums
            """), "p.yaml:6:12: node `drums` is a file player; nothing can be connected into it")
    }

    func testChainIntoAnInput() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              guitar: { input: 1 }
              bus: { mix: 2 }
            chain: [bus, guitar]
            """), "p.yaml:5:14: node `guitar` is an input; nothing can be connected into it")
    }

    func testConnectionOutOfAnOutput() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - out -> bus
            """), "p.yaml:6:5: node `out` is an output; it has nothing to feed `bus`")
    }

    func testConnectionMappingMissingEnd() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - { from: bus }
            """), "p.yaml:6:5: connection needs `from` and `to`; `to` is missing")
    }

    func testConnectionMappingUnknownKey() {
        XCTAssertEqual(patchFailure(twoBuses + """
            connect:
              - { from: bus, to: out, gian: -3dB }
            """), "p.yaml:6:27: unknown key `gian` in a connection (did you mean `gain`?)")
    }

    func testConnectMustBeAList() {
        XCTAssertEqual(patchFailure(twoBuses + "connect: bus -> out\n"),
                       "p.yaml:5:10: `connect` must be a list such as `[drive -> out]`, got \"bus -> out\"")
    }

    func testTapOnUnknownNode() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              drive: { plugin: mda/Overdrive }
            taps:
              - { at: drvie, file: x.wav }
            """), "p.yaml:5:11: unknown node `drvie` in tap (did you mean `drive`?)")
    }

    func testTapWithoutFile() {
        XCTAssertEqual(patchFailure(twoBuses + """
            taps:
              - { at: bus }
            """), "p.yaml:6:5: a tap needs `at` (the node to record) and `file`")
    }

    func testTapUnknownKey() {
        XCTAssertEqual(patchFailure(twoBuses + """
            taps:
              - { at: bus, fil: x.wav }
            """), "p.yaml:6:16: unknown key `fil` in a tap (did you mean `file`?)")
    }

    func testAnchorsRefused() {
        XCTAssertEqual(patchFailure("""
            fxhost: 1
            nodes:
              a: &m { mix: 2 }
              b: *m
            """), "p.yaml:3:6: YAML anchors and aliases are not allowed in patches (found `&m`); write the value out in full, or quote it if it is text")
    }

    func testAliasWithoutAnchorRefused() {
        XCTAssertEqual(patchFailure("fxhost: 1\nnodes: *n\n"),
                       "p.yaml:2:8: YAML anchors and aliases are not allowed in patches (found `*n`); write the value out in full, or quote it if it is text")
    }
}
