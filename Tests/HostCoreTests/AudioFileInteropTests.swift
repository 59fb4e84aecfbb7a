import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// SoX, an independent implementation, writes what we read and reads what
/// we write.
final class AudioFileInteropTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "fxhost-files-tests")
    }

    @discardableResult
    private func run(_ tool: String, _ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/" + tool)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "\(tool) \(arguments)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func testReadsWhatSoxWrites() throws {
        let path = directory.appendingPathComponent("sox.flac").path
        // 0.5 s of a 440 Hz sine at 22050 Hz, three channels, 16-bit FLAC.
        try run("sox", ["-n", "-r", "22050", "-c", "3", "-b", "16", path, "synth", "0.5", "sine", "440"])
        let (reader, output) = try AudioFileTestSupport.readAll(path)
        XCTAssertEqual(reader.channels, 3)
        XCTAssertEqual(reader.sampleRate, 22050)
        XCTAssertEqual(reader.frames, 11025)
        XCTAssertTrue(reader.formatDescription.contains("FLAC"), reader.formatDescription)
        XCTAssertTrue(reader.formatDescription.contains("16"), reader.formatDescription)
        XCTAssertEqual(output[2].count, 11025)
        XCTAssertEqual(AudioFileTestSupport.zeroCrossingFrequency(output[2], sampleRate: 22050), 440, accuracy: 0.5)
    }

    func testSoxReadsWhatWeWrite() throws {
        let cases: [(AudioFileFormat, String, String, String)] = [
            (.wavFloat, "f.wav", "32", "Floating Point PCM"), (.wav16, "i.wav", "16", "Signed Integer PCM"),
            (.flac24, "i.flac", "24", "FLAC"), (.rf64, "f.rf64", "32", "Floating Point PCM"),
        ]
        let input = AudioFileTestSupport.noise(channels: 2, frames: 12_345, amplitude: 0.9, seed: 5)
        for (format, name, bits, encoding) in cases {
            let path = directory.appendingPathComponent(name).path
            try AudioFileTestSupport.write(input, to: path, format: format, sampleRate: 96000)
            XCTAssertEqual(try run("soxi", ["-s", path]), "12345", "\(format)")
            XCTAssertEqual(try run("soxi", ["-c", path]), "2", "\(format)")
            XCTAssertEqual(try run("soxi", ["-r", path]), "96000", "\(format)")
            XCTAssertEqual(try run("soxi", ["-b", path]), bits, "\(format)")
            XCTAssertTrue(try run("soxi", ["-e", path]).contains(encoding), "\(format)")
        }
    }

    /// SoX's own 16-bit conversion of our float file agrees with ours to
    /// within one step (both round; they may break ties differently).
    func testSixteenBitConversionAgreesWithSox() throws {
        let input = AudioFileTestSupport.noise(channels: 1, frames: 10_000, amplitude: 0.99, seed: 6)
        let floatPath = directory.appendingPathComponent("in.wav").path
        let ours = directory.appendingPathComponent("ours.wav").path
        let theirs = directory.appendingPathComponent("theirs.wav").path
        try AudioFileTestSupport.write(input, to: floatPath, format: .wavFloat, sampleRate: 48000)
        try AudioFileTestSupport.write(input, to: ours, format: .wav16, sampleRate: 48000)
        try run("sox", [floatPath, "-b", "16", "--no-dither", theirs])
        let a = try AudioFileTestSupport.readAll(ours).1[0], b = try AudioFileTestSupport.readAll(theirs).1[0]
        XCTAssertEqual(a.count, b.count)
        let steps = zip(a, b).map { abs(Double($0) - Double($1)) * 32768 }
        XCTAssertLessThanOrEqual(steps.max() ?? 99, 1)
        XCTAssertGreaterThan(steps.filter { $0 == 0 }.count, 9_900, "nearly all samples identical")
    }
}
