import XCTest
@testable import HostCore

/// The `--chain` command-line form. Columns are counted in the chain string itself.
final class PatchChainSpecTests: XCTestCase {
    private func at(_ column: Int) -> SourceLocation { SourceLocation(file: "--chain", line: 1, column: column) }

    func testTwoPlugins() throws {
        // Columns: `mda/Overdrive` 1, `drive=0.7` 15, `!` 25, `eg-amp` 27, `gain=-6` 34.
        let patch = try ChainSpec.patch(from: "mda/Overdrive drive=0.7 ! eg-amp gain=-6", inputChannels: 1, outputChannels: 2, units: ChainTestUnits())
        XCTAssertEqual(patch.nodes.map(\.name), ["in", "overdrive", "eg-amp", "out"])
        XCTAssertEqual(patch.nodes.first?.kind, .input(.channels(1)))
        XCTAssertEqual(patch.nodes.last?.kind, .output(.channels(2)))
        XCTAssertEqual(patch.nodes[1].kind, .plugin(PluginNodeSpec(plugin: "mda/Overdrive", pluginLocation: at(1), parameters: [
            ParameterSetting(symbol: "drive", value: .number(0.7), location: at(15)),
        ])))
        XCTAssertEqual(patch.nodes[2].kind, .plugin(PluginNodeSpec(plugin: "eg-amp", pluginLocation: at(27), parameters: [
            ParameterSetting(symbol: "gain", value: .number(-6), location: at(34)),
        ])))
        XCTAssertEqual(patch.connections.map(arrow), ["in -> overdrive", "overdrive -> eg-amp", "eg-amp -> out"])
        XCTAssertEqual(patch.taps, [])
    }

    func testNamesAreMadeUnique() throws {
        let patch = try ChainSpec.patch(from: "mda/Overdrive ! http://drobilla.net/plugins/mda/Overdrive ! http://gareus.org/oss/lv2/fil4#stereo ! in", units: ChainTestUnits())
        XCTAssertEqual(patch.nodes.map(\.name), ["in", "overdrive", "overdrive2", "fil4-stereo", "in2", "out"])
    }

    func testValueKinds() throws {
        let patch = try ChainSpec.patch(from: #"x a=1e-3 b=true c=false d=Shelf e="two words" f=.5"#, units: ChainTestUnits())
        guard case .plugin(let spec) = patch.nodes[1].kind else { return XCTFail("x should be a plugin") }
        XCTAssertEqual(spec.parameters.map(\.value), [.number(0.001), .toggle(true), .toggle(false), .label("Shelf"),
                                                      .label("two words"), .number(0.5)])
    }

    func testParsesToTheSameModelAsTheEquivalentPatchFile() throws {
        let chain = try ChainSpec.patch(from: "mda/Overdrive drive=0.7 ! eg-amp gain=-6", inputChannels: 2, outputChannels: 2, units: ChainTestUnits())
        let file = try PatchParser.parse(text: """
            fxhost: 1
            nodes:
              in: { input: 2 }
              overdrive: { plugin: mda/Overdrive, params: { drive: 0.7 } }
              eg-amp: { plugin: eg-amp, params: { gain: -6 } }
              out: { output: 2 }
            chain: [in, overdrive, eg-amp, out]
            """, path: "p.yaml")
        XCTAssertEqual(withoutLocations(chain), withoutLocations(file))
    }

    func testErrors() {
        XCTAssertEqual(chainFailure(""), "--chain:1:1: the chain names no plugin; write e.g. `mda/Overdrive drive=0.7 ! eg-amp`")
        XCTAssertEqual(chainFailure("a ! ! b"), "--chain:1:5: `!` with no plugin before it; write `PLUGIN ! PLUGIN`")
        XCTAssertEqual(chainFailure("! b"), "--chain:1:1: `!` with no plugin before it; write `PLUGIN ! PLUGIN`")
        XCTAssertEqual(chainFailure("a !"), "--chain:1:4: `!` with no plugin after it; write `PLUGIN ! PLUGIN`")
        XCTAssertEqual(chainFailure("mda/Overdrive drive"),
                       "--chain:1:15: expected `symbol=value` after plugin `mda/Overdrive`, got `drive`")
        XCTAssertEqual(chainFailure("a 9x=1"), "--chain:1:3: `9x` is not a port symbol; symbols contain only letters, digits and `_`")
        XCTAssertEqual(chainFailure("a p=1 p=2"), "--chain:1:7: parameter `p` is given twice for plugin `a`")
        XCTAssertEqual(chainFailure("a pp="), "--chain:1:6: parameter `pp` has no value after `=`")
        XCTAssertEqual(chainFailure("drive=1"), "--chain:1:1: `drive=1` looks like a parameter, but a plugin must come first")
        XCTAssertEqual(chainFailure(#"a p="open"#), "--chain:1:5: unclosed `\"` in the chain")
    }

    func testChannelCounts() {
        XCTAssertThrowsError(try ChainSpec.patch(from: "a", inputChannels: 0, units: ChainTestUnits())) { error in
            XCTAssertEqual((error as? GraphError)?.description, "the chain's input needs 1 to 256 channels, got 0")
        }
    }

    func testPluginReferencesAreTheStagesFirstWordsOrNoneForBadSyntax() {
        XCTAssertEqual(ChainSpec.pluginReferences(in: #"mda/Overdrive drive=0.7 ! "a b" @mix ! eg-amp gain=-6"#),
                       ["mda/Overdrive", "a b", "eg-amp"])
        XCTAssertEqual(ChainSpec.pluginReferences(in: "eg-amp ! ! mda/Delay"), [], "building the patch says what is wrong")
        XCTAssertEqual(ChainSpec.pluginReferences(in: ""), [])
    }
}
