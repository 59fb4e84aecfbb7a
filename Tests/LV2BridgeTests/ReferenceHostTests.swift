import CSndFile
import Foundation
import HostCore
@testable import LV2Bridge
import TestSupport
import XCTest

/// The same plugin with the same parameters through lv2file (a reference
/// host) and through our kernel must give the same bits.
final class ReferenceHostTests: XCTestCase {
    let frames = 48000, channels = 2, block = 256

    func testOverdriveMatchesLV2FileBitForBit() throws {
        let lv2file = "/usr/bin/lv2file"
        // A failure, not a skip: scripts/install-deps.sh installs the reference host.
        guard FileManager.default.isExecutableFile(atPath: lv2file) else {
            return XCTFail("lv2file is not installed; scripts/install-deps.sh installs it")
        }
        let directory = try makeScratchFolder(prefix: "lv2bridge")
        let inputPath = directory.appendingPathComponent("in.wav").path
        let outputPath = directory.appendingPathComponent("out.wav").path

        var noise = Noise()
        let input = (0..<frames * channels).map { _ in noise.next() } // interleaved
        try writeWAV(input, path: inputPath)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: lv2file)
        process.arguments = ["-i", inputPath, "-o", outputPath, "-b", "\(block)", "-p", "drive:0.7",
                             "--ignore-clipping", "http://drobilla.net/plugins/mda/Overdrive"]
        try process.run()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "lv2file failed")
        let reference = try readWAV(path: outputPath)
        XCTAssertEqual(reference.count, input.count)

        let unit = try Installed.unit("mda/Overdrive")
        try unit.setParameter("drive", to: .number(0.7))
        let kernel = try XCTUnwrap(try unit.prepareInstances(
            count: 1, format: RenderFormat(sampleRate: 48000, maxBlockFrames: block, mode: .offline)).kernels.first)
        let driver = KernelDriver(kernel, maxBlock: block)
        var ours = [Float](repeating: 0, count: input.count)
        var start = 0
        while start < frames {
            let count = min(block, frames - start)
            driver.runBlock(frames: count) { channel, buffer in
                for frame in 0..<count { buffer[frame] = input[(start + frame) * channels + channel] }
            }
            for channel in 0..<channels {
                for frame in 0..<count { ours[(start + frame) * channels + channel] = driver.outputs[channel][frame] }
            }
            start += count
        }
        let differing = zip(ours, reference).filter { $0.0.bitPattern != $0.1.bitPattern }.count
        XCTAssertEqual(differing, 0, "samples differing from lv2file")
        XCTAssertGreaterThan(ours.map(abs).max() ?? 0, 0.01, "the plugin produced (near) silence")
    }

    private func writeWAV(_ samples: [Float], path: String) throws {
        var info = SF_INFO(frames: 0, samplerate: 48000, channels: Int32(channels),
                           format: Int32(SF_FORMAT_WAV | SF_FORMAT_FLOAT), sections: 0, seekable: 0)
        let file = try XCTUnwrap(sf_open(path, Int32(SFM_WRITE), &info), "cannot write \(path)")
        defer { sf_close(file) }
        XCTAssertEqual(samples.withUnsafeBufferPointer { sf_writef_float(file, $0.baseAddress, sf_count_t(frames)) },
                       sf_count_t(frames))
    }

    private func readWAV(path: String) throws -> [Float] {
        var info = SF_INFO()
        let file = try XCTUnwrap(sf_open(path, Int32(SFM_READ), &info), "cannot read \(path)")
        defer { sf_close(file) }
        XCTAssertEqual(info.channels, Int32(channels))
        var samples = [Float](repeating: 0, count: Int(info.frames) * Int(info.channels))
        let read = samples.withUnsafeMutableBufferPointer { sf_readf_float(file, $0.baseAddress, info.frames) }
        XCTAssertEqual(read, info.frames)
        return samples
    }
}
