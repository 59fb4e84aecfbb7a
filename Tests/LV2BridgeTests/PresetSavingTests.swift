import CSndFile
import Foundation
import HostCore
@testable import LV2Bridge
import TestSupport
import XCTest

/// A unit's state saved as an LV2 preset bundle, loaded back here and by a
/// host no one here wrote (lv2file), with eg-amp's arithmetic as the oracle;
/// and a state holding a file path (eg-sampler's sample) coming back with
/// the same file. Each test has a world of its own, so the bundles it
/// loads are seen by no other test.
final class PresetSavingTests: XCTestCase {
    private let format = RenderFormat(sampleRate: 48_000, maxBlockFrames: 256, mode: .offline)

    /// A unit with one instance that has run a block (so a worker's answer,
    /// such as eg-sampler's loaded sample, has been delivered).
    private func unit(_ uri: String, in catalog: PluginCatalog) throws -> LV2Unit {
        let unit = try XCTUnwrap(try LV2UnitProvider(catalog: catalog).makeUnit(uri) as? LV2Unit)
        let kernel = try XCTUnwrap(try unit.prepareInstances(count: 1, format: format).kernels.first)
        KernelDriver(kernel, maxBlock: format.maxBlockFrames).runBlock(frames: format.maxBlockFrames) { _, _ in }
        return unit
    }

    func testASavedPresetLoadsHereAndInLV2FileWithItsGain() throws {
        let folder = try makeScratchFolder(prefix: "preset-save")
        let catalog = PluginCatalog(world: LV2World())
        let amp = try unit("http://lv2plug.in/plugins/eg-amp", in: catalog)
        let saved = try amp.savePreset("Minus Six", portValues: ["gain": -6], in: folder)
        let bundle = folder.appendingPathComponent("fxhost-Minus-Six.lv2")
        XCTAssertEqual(saved.label, "Minus Six")
        XCTAssertTrue(FileManager.default.fileExists(atPath: bundle.appendingPathComponent("manifest.ttl").path))
        XCTAssertTrue(amp.plugin.presets.contains(saved), "the unit knows its new preset")

        let other = try unit("http://lv2plug.in/plugins/eg-amp", in: catalog)
        try other.applyPreset("Minus Six")
        XCTAssertEqual(other.parameterValue("gain"), -6)

        // Saving again under the same name replaces it.
        _ = try amp.savePreset("Minus Six", portValues: ["gain": -12], in: folder)
        try other.applyPreset("Minus Six")
        XCTAssertEqual(other.parameterValue("gain"), -12)
        XCTAssertEqual(amp.plugin.presets.filter { $0.label == "Minus Six" }.count, 1)

        // lv2file finds it on LV2_PATH and plays through it: ×10^(-12/20).
        let input = folder.appendingPathComponent("in.wav").path, output = folder.appendingPathComponent("out.wav").path
        try Audio.constant([0.5], frames: 4800).write(input)
        let environment = ["LV2_PATH": folder.path + ":/usr/lib/lv2"]
        let listed = try run("/usr/bin/lv2file", ["-L", "http://lv2plug.in/plugins/eg-amp"], environment: environment)
        XCTAssertTrue(listed.contains("Minus Six"), listed)
        _ = try run("/usr/bin/lv2file", ["-P", "Minus Six", "-i", input, "-o", output, "http://lv2plug.in/plugins/eg-amp"],
                    environment: environment)
        let played = try Audio.read(output).channels[0]
        XCTAssertEqual(played.count, 4800)
        XCTAssertEqual(played.last ?? 0, 0.5 * 0.251189, accuracy: 1e-6)
    }

    /// eg-sampler starts with the sample its manifest names (click.wav, by
    /// state:loadDefaultState); its saved state links that file into the
    /// bundle, and a unit restored from it saves the same file again.
    func testAStateWithAFilePathComesBackWithTheSameFile() throws {
        let folder = try makeScratchFolder(prefix: "preset-save-path")
        let catalog = PluginCatalog(world: LV2World())
        let sampler = try unit("http://lv2plug.in/plugins/eg-sampler", in: catalog)
        _ = try sampler.savePreset("Click", portValues: [:], in: folder.appendingPathComponent("first"))
        let clickFile = URL(fileURLWithPath: "/usr/lib/lv2/eg-sampler.lv2/click.wav").resolvingSymlinksInPath().path
        let first = try sampleFile(in: folder.appendingPathComponent("first/fxhost-Click.lv2"))
        XCTAssertEqual(first, clickFile)

        let restored = try unit("http://lv2plug.in/plugins/eg-sampler", in: catalog)
        try restored.applyPreset("Click")
        let kernel = try XCTUnwrap(try restored.prepareInstances(count: 1, format: format).kernels.first)
        KernelDriver(kernel, maxBlock: format.maxBlockFrames).runBlock(frames: format.maxBlockFrames) { _, _ in }
        _ = try restored.savePreset("Click again", portValues: [:], in: folder.appendingPathComponent("second"))
        XCTAssertEqual(try sampleFile(in: folder.appendingPathComponent("second/fxhost-Click-again.lv2")), clickFile)
    }

    /// The file eg-sampler's saved state names, its links followed.
    private func sampleFile(in bundle: URL) throws -> String {
        let state = try String(contentsOf: bundle.appendingPathComponent("state.ttl"), encoding: .utf8)
        let line = try XCTUnwrap(state.split(separator: "\n").first { $0.contains("eg-sampler#sample") },
                                 state.replacingOccurrences(of: "\n", with: " | "))
        let name = try XCTUnwrap(line.split(separator: "<").last?.split(separator: ">").first, String(line))
        let path = name.hasPrefix("/") ? String(name) : bundle.appendingPathComponent(String(name)).path
        return URL(fileURLWithPath: path).resolvingSymlinksInPath().path
    }

    private func run(_ tool: String, _ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments): \(text)")
        return text
    }
}
