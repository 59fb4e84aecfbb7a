import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// Round trips through every written format. Oracles: the input itself
/// (float), the quantisation step (integer PCM), signal properties (lossy).
final class AudioFileRoundTripTests: XCTestCase {
    var directory: URL!

    override func setUpWithError() throws {
        directory = try makeScratchFolder(prefix: "fxhost-files-tests")
    }

    func testWavFloatIsBitExact() throws {
        let input = AudioFileTestSupport.noise(channels: 2, frames: 10_000, amplitude: 1.5, seed: 1)
        let path = directory.appendingPathComponent("float.wav").path
        try AudioFileTestSupport.write(input, to: path, format: .wavFloat, sampleRate: 48000)
        let (reader, output) = try AudioFileTestSupport.readAll(path)
        XCTAssertEqual(reader.channels, 2)
        XCTAssertEqual(reader.sampleRate, 48000)
        XCTAssertEqual(reader.frames, 10_000)
        for channel in 0..<2 {
            XCTAssertEqual(output[channel].map(\.bitPattern), input[channel].map(\.bitPattern), "channel \(channel)")
        }
    }

    func testRF64FloatIsBitExact() throws {
        let input = AudioFileTestSupport.noise(channels: 1, frames: 5000, amplitude: 1, seed: 2)
        let path = directory.appendingPathComponent("float.rf64").path
        try AudioFileTestSupport.write(input, to: path, format: .rf64, sampleRate: 44100)
        let (reader, output) = try AudioFileTestSupport.readAll(path)
        XCTAssertEqual(reader.sampleRate, 44100)
        XCTAssertEqual(output[0].map(\.bitPattern), input[0].map(\.bitPattern))
    }

    func testIntegerFormatsAreWithinHalfAStep() throws {
        let cases: [(AudioFileFormat, String, Int)] = [
            (.wav16, "a.wav", 16), (.wav24, "b.wav", 24), (.flac16, "c.flac", 16), (.flac24, "d.flac", 24),
        ]
        let input = AudioFileTestSupport.noise(channels: 2, frames: 20_000, amplitude: 0.999, seed: 3)
        for (format, name, bits) in cases {
            let path = directory.appendingPathComponent(name).path
            try AudioFileTestSupport.write(input, to: path, format: format, sampleRate: 48000)
            let (reader, output) = try AudioFileTestSupport.readAll(path)
            XCTAssertEqual(reader.frames, 20_000, "\(format)")
            // Full scale is 2^(bits-1) steps each way.
            let halfStep = 0.5 / Double(1 << (bits - 1))
            var worst = 0.0
            for channel in 0..<2 {
                for (a, b) in zip(input[channel], output[channel]) { worst = max(worst, abs(Double(a) - Double(b))) }
            }
            XCTAssertLessThanOrEqual(worst, halfStep, "\(format): worst error \(worst)")
            // A quantiser that really quantises: not everything comes back exact.
            XCTAssertGreaterThan(worst, halfStep / 4, "\(format) should quantise")
        }
    }

    func testIntegerFormatsClipInsteadOfWrapping() throws {
        let input: [[Float]] = [[1.5, -1.5, 1.0, -1.0, 4.0, .infinity, -.infinity, .nan]]
        for (format, name, bits) in [(AudioFileFormat.wav16, "c.wav", 16), (.flac24, "c.flac", 24)] {
            let path = directory.appendingPathComponent(name).path
            try AudioFileTestSupport.write(input, to: path, format: format, sampleRate: 48000)
            let (_, output) = try AudioFileTestSupport.readAll(path)
            let top = Float((1 << (bits - 1)) - 1) / Float(1 << (bits - 1))
            XCTAssertEqual(output[0], [top, -1, top, -1, top, top, -1, 0], "\(format)")
        }
    }

    func testLossyCodecsKeepLengthFrequencyAndLevel() throws {
        // Padding allowances: Vorbis and Opus come back trimmed to the exact
        // length (granule positions); MP3 may keep up to a frame (1152) plus
        // the encoder delay (576 + 529) when there is no gapless tag.
        let cases: [(AudioFileFormat, String, Int)] = [
            (.oggVorbis, "s.ogg", 0), (.oggOpus, "s.opus", 0), (.mp3, "s.mp3", 1152 + 576 + 529),
        ]
        let sampleRate = 48000, frames = 2 * 48000
        let amplitude = Float(Decibels.toLinear(-6))
        let sine = (0..<frames).map { amplitude * Float(sin(2 * Double.pi * 1000 * Double($0) / Double(sampleRate))) }
        for (format, name, padding) in cases {
            let path = directory.appendingPathComponent(name).path
            try AudioFileTestSupport.write([sine, sine], to: path, format: format, sampleRate: sampleRate)
            let (reader, output) = try AudioFileTestSupport.readAll(path)
            XCTAssertEqual(reader.channels, 2, "\(format)")
            XCTAssertLessThanOrEqual(abs(output[0].count - frames), padding, "\(format): \(output[0].count) frames")
            // Skip the codec's start-up and tail.
            let middle = Array(output[0][4800..<(output[0].count - 4800)])
            let frequency = AudioFileTestSupport.zeroCrossingFrequency(middle, sampleRate: Double(sampleRate))
            XCTAssertEqual(frequency, 1000, accuracy: 10, "\(format)")
            let rms = AudioFileTestSupport.rms(middle)
            let expected = Double(amplitude) / 2.0.squareRoot()
            XCTAssertEqual(Decibels.fromLinear(rms), Decibels.fromLinear(expected), accuracy: 1, "\(format)")
        }
    }

    func testReaderDescribesFormatAndSeeks() throws {
        let ramp: [[Float]] = [(0..<1000).map { Float($0) / 1000 }]
        let path = directory.appendingPathComponent("ramp.wav").path
        try AudioFileTestSupport.write(ramp, to: path, format: .wavFloat, sampleRate: 48000)
        let reader = try AudioFileReader(path: path)
        XCTAssertTrue(reader.formatDescription.contains("WAV"), reader.formatDescription)
        XCTAssertTrue(reader.formatDescription.contains("float"), reader.formatDescription)
        try reader.seek(toFrame: 900)
        var buffer = [Float](repeating: -1, count: 200)
        let got = buffer.withUnsafeMutableBufferPointer { storage in
            withUnsafeTemporaryAllocation(of: UnsafeMutablePointer<Float>.self, capacity: 1) { pointers in
                pointers[0] = storage.baseAddress!
                return reader.read(into: UnsafeBufferPointer(pointers), frames: 200)
            }
        }
        XCTAssertEqual(got, 100)
        XCTAssertEqual(Array(buffer[0..<100]), Array(ramp[0][900..<1000]))
        XCTAssertEqual(buffer[100], -1, "nothing past the end is touched")
    }

    func testReaderFillsExtraChannelsWithSilence() throws {
        let path = directory.appendingPathComponent("mono.wav").path
        try AudioFileTestSupport.write([[0.25, 0.5]], to: path, format: .wavFloat, sampleRate: 48000)
        let reader = try AudioFileReader(path: path)
        var left = [Float](repeating: 9, count: 2), right = [Float](repeating: 9, count: 2)
        let got = left.withUnsafeMutableBufferPointer { l in
            right.withUnsafeMutableBufferPointer { r in
                let pointers = [l.baseAddress!, r.baseAddress!]
                return pointers.withUnsafeBufferPointer { reader.read(into: $0, frames: 2) }
            }
        }
        XCTAssertEqual(got, 2)
        XCTAssertEqual(left, [0.25, 0.5])
        XCTAssertEqual(right, [0, 0])
    }
}

/// Helpers shared by the audio file, ring and tap tests.
enum AudioFileTestSupport {
    /// Deterministic uniform noise in ±amplitude (a 64-bit LCG).
    static func noise(channels: Int, frames: Int, amplitude: Float, seed: UInt64) -> [[Float]] {
        var state = seed &* 6364136223846793005 &+ 1442695040888963407
        return (0..<channels).map { _ in
            (0..<frames).map { _ in
                state = state &* 6364136223846793005 &+ 1442695040888963407
                let unit = Float(state >> 40) / Float(1 << 24)   // [0, 1)
                return (unit * 2 - 1) * amplitude
            }
        }
    }

    static func write(_ channels: [[Float]], to path: String, format: AudioFileFormat, sampleRate: Int,
                      mode: AudioFileWriter.Mode = .atomic) throws {
        let writer = try AudioFileWriter(path: path, format: format, channels: channels.count,
                                         sampleRate: sampleRate, mode: mode)
        try write(channels, with: writer)
        try writer.finish()
    }

    /// Writes planar data in uneven blocks, to cross block boundaries.
    static func write(_ channels: [[Float]], with writer: AudioFileWriter) throws {
        let frames = channels[0].count
        var done = 0, block = 1000
        while done < frames {
            let count = min(block, frames - done)
            try withPointers(channels, offset: done) { try writer.write(channels: $0, frames: count) }
            done += count
            block = block == 1000 ? 4999 : 1000
        }
    }

    /// Planar pointers into `channels`, starting at `offset`.
    static func withPointers<R>(_ channels: [[Float]], offset: Int,
                                _ body: (UnsafeBufferPointer<UnsafePointer<Float>>) throws -> R) rethrows -> R {
        let storage = channels.map { channel -> UnsafeMutablePointer<Float> in
            let copy = UnsafeMutablePointer<Float>.allocate(capacity: max(channel.count - offset, 1))
            copy.initialize(from: Array(channel[offset...]), count: channel.count - offset)
            return copy
        }
        defer { storage.forEach { $0.deallocate() } }
        let pointers = storage.map { UnsafePointer($0) }
        return try pointers.withUnsafeBufferPointer { try body($0) }
    }

    /// Everything in the file, planar.
    static func readAll(_ path: String) throws -> (AudioFileReader, [[Float]]) {
        let reader = try AudioFileReader(path: path)
        var output = [[Float]](repeating: [], count: reader.channels)
        let block = 3000
        let buffers = (0..<reader.channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { buffers.forEach { $0.deallocate() } }
        while true {
            let got = buffers.withUnsafeBufferPointer { reader.read(into: $0, frames: block) }
            if got == 0 { break }
            for channel in 0..<reader.channels {
                output[channel].append(contentsOf: UnsafeBufferPointer(start: buffers[channel], count: got))
            }
        }
        return (reader, output)
    }

    /// Frequency from rising zero crossings, interpolated between samples.
    static func zeroCrossingFrequency(_ samples: [Float], sampleRate: Double) -> Double {
        var crossings: [Double] = []
        for index in 1..<samples.count where samples[index - 1] < 0 && samples[index] >= 0 {
            let a = Double(samples[index - 1]), b = Double(samples[index])
            crossings.append(Double(index - 1) + (-a) / (b - a))
        }
        guard crossings.count >= 2 else { return 0 }
        return Double(crossings.count - 1) / ((crossings.last! - crossings.first!) / sampleRate)
    }

    static func rms(_ samples: [Float]) -> Double {
        (samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)).squareRoot()
    }
}
