import XCTest
@testable import HostCore

/// The stereo loops are vectorised, the general ones go a sample at a time:
/// both must put every sample where the arithmetic says (frame × channels +
/// channel), for lengths that leave a remainder after the vector steps and
/// for starts that are not vector-aligned.
final class InterleavingTests: XCTestCase {
    /// A distinct value per channel and frame, so any misplaced sample shows.
    private func value(channel: Int, frame: Int) -> Float { Float(channel * 10_000 + frame) + 0.5 }

    func testInterleaveMatchesTheArithmetic() {
        for channels in 1...3 {
            for frames in [0, 1, 3, 4, 5, 7, 8, 13, 64, 67] {
                for offset in [0, 1, 3] {
                    let planar = (0..<channels).map { channel in
                        (0..<(offset + frames)).map { value(channel: channel, frame: $0) }
                    }
                    var target = [Float](repeating: -1, count: frames * channels + 1)
                    withPointers(planar) { pointers in
                        target.withUnsafeMutableBufferPointer { buffer in
                            Interleaving.interleave(pointers, from: offset, into: buffer.baseAddress!,
                                                    channels: channels, frames: frames)
                        }
                    }
                    for frame in 0..<frames {
                        for channel in 0..<channels {
                            XCTAssertEqual(target[frame * channels + channel], value(channel: channel, frame: offset + frame),
                                           "\(channels) channels, \(frames) frames from \(offset): frame \(frame) channel \(channel)")
                        }
                    }
                    XCTAssertEqual(target[frames * channels], -1, "nothing written past the last frame")
                }
            }
        }
    }

    func testInterleaveGivesSilenceForChannelsTheSourceLacks() {
        let planar: [[Float]] = [[1, 2, 3, 4, 5]]
        var target = [Float](repeating: -1, count: 10)
        withPointers(planar) { pointers in
            target.withUnsafeMutableBufferPointer { buffer in
                Interleaving.interleave(pointers, from: 0, into: buffer.baseAddress!, channels: 2, frames: 5)
            }
        }
        XCTAssertEqual(target, [1, 0, 2, 0, 3, 0, 4, 0, 5, 0])
    }

    func testDeinterleaveMatchesTheArithmetic() {
        for channels in 1...3 {
            for targetCount in [channels, channels + 1, max(channels - 1, 1)] {
                for frames in [0, 1, 3, 4, 5, 7, 8, 13, 64, 67] {
                    for offset in [0, 1, 3] {
                        var interleaved: [Float] = []
                        for frame in 0..<frames {
                            for channel in 0..<channels { interleaved.append(value(channel: channel, frame: frame)) }
                        }
                        let buffers = (0..<targetCount).map { _ in
                            UnsafeMutablePointer<Float>.allocate(capacity: offset + frames + 1)
                        }
                        defer { buffers.forEach { $0.deallocate() } }
                        for buffer in buffers { buffer.initialize(repeating: -1, count: offset + frames + 1) }
                        interleaved.withUnsafeBufferPointer { source in
                            buffers.withUnsafeBufferPointer { targets in
                                Interleaving.deinterleave(source.baseAddress ?? UnsafePointer(buffers[0]), channels: channels,
                                                          into: targets, at: offset, frames: frames)
                            }
                        }
                        let context = "\(channels) channels into \(targetCount), \(frames) frames at \(offset)"
                        for (channel, buffer) in buffers.enumerated() {
                            for index in 0..<offset { XCTAssertEqual(buffer[index], -1, "\(context): before the offset") }
                            for frame in 0..<frames {
                                let expected = channel < channels ? value(channel: channel, frame: frame) : 0
                                XCTAssertEqual(buffer[offset + frame], expected, "\(context): channel \(channel) frame \(frame)")
                            }
                            XCTAssertEqual(buffer[offset + frames], -1, "\(context): after the last frame")
                        }
                    }
                }
            }
        }
    }

    private func withPointers(_ planar: [[Float]], _ body: (UnsafeBufferPointer<UnsafePointer<Float>>) -> Void) {
        let copies = planar.map { channel -> UnsafeMutablePointer<Float> in
            let pointer = UnsafeMutablePointer<Float>.allocate(capacity: max(channel.count, 1))
            pointer.initialize(from: channel, count: channel.count)
            return pointer
        }
        defer { copies.forEach { $0.deallocate() } }
        let pointers = copies.map { UnsafePointer($0) }
        pointers.withUnsafeBufferPointer(body)
    }
}
