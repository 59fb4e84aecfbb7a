import Foundation
import TestSupport
import XCTest
@testable import HostCore

/// A render reads and writes one block at a time, and the file classes
/// gather those blocks (libsndfile makes a syscall for every call): a
/// reader reads ahead, an atomic writer collects planar blocks until
/// `close()`. Oracle: a ramp, sample i = i + 1 (exact in Float), must come
/// back in order through blocks of every awkward size, across seeks and
/// mixed with interleaved writes.
final class AudioFileBlockIOTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = try makeScratchFolder(prefix: "fxhost-block-io")
    }

    private func ramp(_ range: Range<Int>, channel: Int) -> [Float] { range.map { Float($0 + 1 + channel * 100_000) } }

    func testPlanarBlocksAndInterleavedWritesLandInOrder() throws {
        let path = folder.appendingPathComponent("ramp.wav").path
        let writer = try AudioFileWriter(path: path, format: .wavFloat, channels: 2, sampleRate: 48_000, mode: .atomic)
        var done = 0
        for (index, count) in [1, 63, 64, 4_095, 4_097, 7, 9_000, 3].enumerated() {
            if index == 5 {
                // An interleaved write between planar ones must come after what was gathered.
                let interleaved = zip(ramp(done..<done + count, channel: 0), ramp(done..<done + count, channel: 1))
                    .flatMap { [$0, $1] }
                try interleaved.withUnsafeBufferPointer { try writer.write(interleaved: $0.baseAddress!, frames: count) }
            } else {
                let channels = [ramp(done..<done + count, channel: 0), ramp(done..<done + count, channel: 1)]
                try AudioFileTestSupport.withPointers(channels, offset: 0) { try writer.write(channels: $0, frames: count) }
            }
            done += count
        }
        try writer.finish()
        XCTAssertEqual(writer.framesWritten, done, "every gathered frame is written by close()")
        let read = try Audio.read(path).channels
        XCTAssertEqual(read.map(\.count), [done, done])
        // A Bool, not the arrays: a failure would print 2 × 22 000 samples.
        XCTAssertTrue(read == [ramp(0..<done, channel: 0), ramp(0..<done, channel: 1)], "the ramp, in order")
    }

    func testReadingAheadServesEveryBlockSizeAndSeeks() throws {
        let frames = 10_000
        let path = folder.appendingPathComponent("source.wav").path
        try AudioFileTestSupport.write([ramp(0..<frames, channel: 0), ramp(0..<frames, channel: 1)], to: path,
                                       format: .wavFloat, sampleRate: 48_000)
        let reader = try AudioFileReader(path: path)
        var got: [[Float]] = [[], []]
        func read(_ count: Int) -> Int {
            let buffers = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: max(count, 1)) }
            defer { buffers.forEach { $0.deallocate() } }
            let read = buffers.withUnsafeBufferPointer { reader.read(into: $0, frames: count) }
            for channel in 0..<2 { got[channel] += Array(UnsafeBufferPointer(start: buffers[channel], count: read)) }
            return read
        }
        for count in [1, 64, 63, 4_096, 5_000] { XCTAssertEqual(read(count), count) }
        XCTAssertEqual(got, [ramp(0..<9_224, channel: 0), ramp(0..<9_224, channel: 1)])
        XCTAssertEqual(read(1_000), 776, "the end of the file: only what is left")
        XCTAssertEqual(read(64), 0)

        try reader.seek(toFrame: 100)
        got = [[], []]
        XCTAssertEqual(read(10), 10, "what was read ahead before the seek is not served")
        XCTAssertEqual(got, [ramp(100..<110, channel: 0), ramp(100..<110, channel: 1)])
    }

    /// What a render with worker threads does between blocks: reading ahead
    /// early (`readAhead`) and handing a full gather buffer over early
    /// (`flushIfFull`), at every point of the buffers' fill, changes nothing
    /// in what is read or written.
    func testReadingAheadAndFlushingEarlyChangeNothing() throws {
        let frames = 20_000
        let source = folder.appendingPathComponent("early-source.wav").path
        try AudioFileTestSupport.write([ramp(0..<frames, channel: 0), ramp(0..<frames, channel: 1)], to: source,
                                       format: .wavFloat, sampleRate: 48_000)
        let reader = try AudioFileReader(path: source)
        let path = folder.appendingPathComponent("early-copy.wav").path
        let writer = try AudioFileWriter(path: path, format: .wavFloat, channels: 2, sampleRate: 48_000, mode: .atomic)
        let buffers = (0..<2).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: 5_000) }
        defer { buffers.forEach { $0.deallocate() } }
        var done = 0
        for count in [512, 1, 4_095, 3_000, 64, 4_096, 5_000, 700, 2_532] {
            reader.readAhead(atLeast: count)
            let read = buffers.withUnsafeBufferPointer { reader.read(into: $0, frames: count) }
            XCTAssertEqual(read, count)
            let channels = buffers.map { UnsafePointer($0) }
            try channels.withUnsafeBufferPointer { try writer.write(channels: $0, frames: read) }
            try writer.flushIfFull()
            reader.readAhead(atLeast: 4_096)
            done += read
        }
        XCTAssertEqual(done, frames)
        reader.readAhead(atLeast: 64)
        XCTAssertEqual(buffers.withUnsafeBufferPointer { reader.read(into: $0, frames: 64) }, 0, "nothing after the end")
        try writer.finish()
        XCTAssertTrue(try Audio.read(path).channels == [ramp(0..<frames, channel: 0), ramp(0..<frames, channel: 1)],
                      "the ramp, in order")
    }
}
