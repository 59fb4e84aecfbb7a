import Foundation
import XCTest

/// Every bundled preset renders, and what comes out has the properties the
/// preset promises.
final class PresetTests: XCTestCase {
    func render(_ preset: String, input: Audio) throws -> Audio {
        let folder = try Tools.temporaryFolder(preset)
        let inputPath = folder.appendingPathComponent("in.wav").path
        let outputPath = folder.appendingPathComponent("out.wav").path
        try input.write(inputPath)
        let patch = Tools.packageRoot.appendingPathComponent("Presets/\(preset).yaml").path
        try Tools.fxhost(["check", patch])
        try Tools.fxhost(["render", patch, "-i", inputPath, "-o", outputPath, "--quiet"])
        let output = try Audio.read(outputPath)
        XCTAssertEqual(output.channels.count, 2, preset)
        XCTAssertGreaterThanOrEqual(output.frames, input.frames, preset)
        XCTAssertTrue(output.channels.allSatisfy { $0.allSatisfy(\.isFinite) }, "\(preset): finite samples")
        XCTAssertGreaterThan(output.peak, 0.01, "\(preset): not silent")
        return output
    }

    func testGuitarCrunch() throws {
        _ = try render("guitar-crunch", input: .noise(channels: 1, frames: 48000, amplitude: 0.3))
    }

    func testVocalChain() throws {
        _ = try render("vocal-chain", input: .noise(channels: 1, frames: 48000, amplitude: 0.3))
    }

    func testMasteringLimitsTheMixBelowItsThreshold() throws {
        let loud = Audio.noise(channels: 2, frames: 96000, amplitude: 1.0, seed: 11)
        let output = try render("mastering", input: loud)
        // dpl's threshold is -1 dBFS: no sample may exceed 10^(-1/20).
        XCTAssertLessThanOrEqual(output.peak, Float(pow(10, -1.0 / 20)) + 1e-4)
    }
}
