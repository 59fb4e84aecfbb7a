import Foundation
import HostCore
import LV2Bridge
import XCTest

/// Errors only the installed plugins can reveal, reported at the patch's
/// `file:line:column` with what was meant. Each YAML is written here so its
/// positions can be counted by eye.
final class PatchResolutionErrorTests: XCTestCase {
    static let units = LV2UnitProvider(catalog: PluginCatalog())

    func expectError(_ yaml: String, _ expected: String, file: StaticString = #filePath, line: UInt = #line) {
        do {
            let patch = try PatchParser.parse(text: yaml, path: "/project/p.yaml")
            let graph = try PatchLoader(units: Self.units, inspectFile: { path in
                // Stand-in files: "44k" in the name means 44.1 kHz.
                FileShape(channels: 2, sampleRate: path.contains("44k") ? 44100 : 48000, frames: 48000)
            }).graph(for: patch)
            _ = try PatchLoader.sampleRate(of: graph)
            _ = try graph.compile(format: RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline))
            XCTFail("expected: \(expected)", file: file, line: line)
        } catch {
            XCTAssertEqual("\(error)", expected, file: file, line: line)
        }
    }

    func testUnknownPluginSuggestsTheClosestName() {
        expectError("""
            fxhost: 1
            nodes:
              drive: { plugin: mda/Overdirve }
            """, "/project/p.yaml:3:20: node `drive`: no installed LV2 plugin is called `mda/Overdirve` (did you mean `mda/Overdrive`?)")
    }

    func testAmbiguousPluginListsTheCandidates() {
        expectError("""
            fxhost: 1
            nodes:
              fade: { plugin: XFade }
            """, "/project/p.yaml:3:19: node `fade`: plugin name `XFade` is ambiguous: it matches 2 plugins: http://gareus.org/oss/lv2/xfade, http://plugin.org.uk/swh-plugins/xfade (write the full URI or a longer name)")
    }

    func testUnknownParameterSuggestsTheRightSymbol() {
        expectError("""
            fxhost: 1
            nodes:
              drive:
                plugin: mda/Overdrive
                params: { drvie: 0.5 }
            """, "/project/p.yaml:5:15: node `drive`: `MDA Overdrive` has no parameter `drvie` (did you mean `drive`?)")
    }

    func testOutOfRangeParameterNamesTheRange() {
        expectError("""
            fxhost: 1
            nodes:
              drive:
                plugin: mda/Overdrive
                params:
                  muffle: -1
            """, "/project/p.yaml:6:7: node `drive`: `muffle` is -1, outside its range 0…1")
    }

    func testUnknownPresetSuggestsALabel() {
        expectError("""
            fxhost: 1
            nodes:
              detune: { plugin: mda/Detune, preset: Out of tnue }
            """, "/project/p.yaml:3:41: node `detune`: `MDA Detune` has no preset \"Out of tnue\"; its presets are: \"Out Of Tune\", \"Stereo Detune\", \"Symphonic\" (did you mean `Out Of Tune`?)")
    }

    func testUnknownAudioPortSymbolListsThePorts() {
        expectError("""
            fxhost: 1
            nodes:
              in: { input: 1 }
              drive: { plugin: mda/Overdrive }
            connect:
              - in -> drive:left_inn
            """, "/project/p.yaml:6:11: `drive` (MDA Overdrive) has no audio input port `left_inn`; its inputs are `left_in`, `right_in` (did you mean `left_in`?)")
    }

    func testStereoIntoAMonoOnlyInputIsAmbiguous() {
        expectError("""
            fxhost: 1
            nodes:
              in: { input: 3 }
              drive: { plugin: mda/Overdrive }
              out: { output: 2 }
            chain: [in, drive, out]
            """, "/project/p.yaml:6:13: `in` sends 3 channels but `drive` (MDA Overdrive) takes 2 and gives 2 (wire the channels explicitly, e.g. `in:1 -> drive:1`)")
    }

    func testFilesAtDifferentRatesAreRefused() {
        expectError("""
            fxhost: 1
            nodes:
              a: { file: a.wav }
              b: { file: b-44k.wav }
              out: { output: 2 }
            connect: [a -> out, b -> out]
            """, "/project/p.yaml:4:3: `/project/b-44k.wav` is at 44100 Hz but `/project/a.wav` is at 48000 Hz (fxhost does not resample, so convert it first (e.g. `sox /project/b-44k.wav -r 48000 converted.wav`))")
    }

    func testAPresetByLabelChangesTheSound() throws {
        let patch = try PatchParser.parse(text: """
            fxhost: 1
            nodes:
              detune: { plugin: mda/Detune, preset: Out Of Tune }
            """, path: "p.yaml")
        let graph = try PatchLoader(units: Self.units).graph(for: patch)
        guard case .unit(let unit, _) = graph.node(named: "detune")!.kind else { return XCTFail("not a unit") }
        let defaultValue = unit.parameters.first { $0.symbol == "detune" }!.defaultValue
        XCTAssertNotEqual(unit.parameterValue("detune"), defaultValue, "the preset moved `detune` off its default")
    }
}
