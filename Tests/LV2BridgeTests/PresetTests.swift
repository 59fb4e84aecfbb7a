import Foundation
import HostCore
@testable import LV2Bridge
import XCTest

final class PresetTests: XCTestCase {
    /// The value a preset sets for `symbol`, read from the bundle's Turtle text.
    func presetValue(file: String, label: String, symbol: String) throws -> Float {
        let text = try String(contentsOfFile: file, encoding: .utf8)
        let block = try XCTUnwrap(text.components(separatedBy: "a pset:Preset").first {
            $0.contains("rdfs:label \"\(label)\"")
        })
        let afterSymbol = try XCTUnwrap(block.components(separatedBy: "lv2:symbol \"\(symbol)\"").dropFirst().first)
        let valueText = try XCTUnwrap(afterSymbol.components(separatedBy: "pset:value").dropFirst().first)
        let number = valueText.trimmingCharacters(in: .whitespacesAndNewlines)
            .prefix { "0123456789.-eE".contains($0) }
        return try XCTUnwrap(Float(String(number)))
    }

    func testPresetByLabelSetsTheTurtleValue() throws {
        let expected = try presetValue(file: "/usr/lib/lv2/mda.lv2/Detune-presets.ttl",
                                       label: "Out Of Tune", symbol: "detune")
        let unit = try Installed.unit("mda/Detune")
        XCTAssertTrue(unit.presetNames.contains("Out Of Tune"))
        XCTAssertNotEqual(unit.parameterValue("detune"), expected, "pick a preset that changes the value")
        try unit.applyPreset("out of tune")
        XCTAssertEqual(unit.parameterValue("detune"), expected)
    }

    func testPresetByURIAppliesToInstancesMadeLater() throws {
        let unit = try Installed.unit("mda/Detune")
        let preset = try XCTUnwrap(unit.plugin.presets.first { $0.label == "Symphonic" })
        try unit.applyPreset(preset.uri)
        _ = try unit.prepareInstances(count: 2, format: RenderFormat(sampleRate: 48000, maxBlockFrames: 64, mode: .offline))
        let expected = try presetValue(file: "/usr/lib/lv2/mda.lv2/Detune-presets.ttl", label: "Symphonic", symbol: "mix")
        XCTAssertEqual(unit.parameterValue("mix"), expected)
    }

    func testUnknownPresetListsLabels() throws {
        let unit = try Installed.unit("mda/Detune")
        XCTAssertThrowsError(try unit.applyPreset("Symphonik")) { error in
            let unitError = error as? UnitError
            XCTAssertEqual(unitError?.message, "`MDA Detune` has no preset \"Symphonik\"; its presets are: "
                + unit.presetNames.map { "\"\($0)\"" }.joined(separator: ", "))
            XCTAssertEqual(unitError?.suggestion, "did you mean `Symphonic`?")
        }
        let amp = try Installed.unit("eg-amp")
        XCTAssertThrowsError(try amp.applyPreset("x")) { error in
            XCTAssertEqual((error as? UnitError)?.message, "`Simple Amplifier` has no presets")
        }
    }
}
