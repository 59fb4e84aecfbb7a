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
        XCTAssertTrue(unit.plugin.presets.map(\.label).contains("Out Of Tune"))
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
                + unit.plugin.presets.map(\.label).map { "\"\($0)\"" }.joined(separator: ", "))
            XCTAssertEqual(unitError?.suggestion, "did you mean `Symphonic`?")
        }
        let amp = try Installed.unit("eg-amp")
        XCTAssertThrowsError(try amp.applyPreset("x")) { error in
            XCTAssertEqual((error as? UnitError)?.message, "`Simple Amplifier` has no presets")
        }
    }
}

/// A preset whose state the plugin loads through its worker (x42's preset
/// convolver loads its impulse response there) sounds when live too: the
/// latency probe's reset must not throw that request away.
final class WorkerStatePresetTests: XCTestCase {
    func testAStatePresetLoadedThroughTheWorkerPlaysLive() throws {
        let unit = try Installed.unit("http://gareus.org/oss/lv2/zeroconvolv#Mono")
        try unit.applyPreset("No-OP Mono")
        let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .live)
        let driver = KernelDriver(try unit.prepareInstances(count: 1, format: format).kernels[0], maxBlock: 256)
        // The worker thread loads the impulse response in the background:
        // run blocks (as the realtime thread would) until sound comes out.
        var loudest: Float = 0
        let deadline = Date().addingTimeInterval(60)
        while loudest < 0.25 && Date() < deadline {
            driver.runBlock(frames: 256) { _, buffer in buffer.update(repeating: 0.5, count: 256) }
            loudest = max(loudest, (0..<256).map { abs(driver.outputs[0][$0]) }.max()!)
            usleep(2000)
        }
        // "No-OP" is a unit impulse: a constant 0.5 comes out as 0.5.
        XCTAssertEqual(loudest, 0.5, accuracy: 0.01)
    }
}
