import Foundation
import HostCore

/// Planar audio held in memory.
public struct Audio: Equatable {
    public var channels: [[Float]]
    public var sampleRate: Int

    public init(channels: [[Float]], sampleRate: Int = 48000) {
        self.channels = channels
        self.sampleRate = sampleRate
    }

    public var frames: Int { channels.first?.count ?? 0 }

    /// Deterministic white noise in -amplitude…amplitude.
    public static func noise(channels: Int, frames: Int, sampleRate: Int = 48000, amplitude: Float = 0.5,
                             seed: UInt64 = 1) -> Audio {
        var state = seed
        func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(Int32(truncatingIfNeeded: state >> 32)) / Float(Int32.max) * amplitude
        }
        var data = [[Float]](repeating: [], count: channels)
        for _ in 0..<frames { for channel in 0..<channels { data[channel].append(next()) } }
        return Audio(channels: data, sampleRate: sampleRate)
    }

    public static func constant(_ values: [Float], frames: Int, sampleRate: Int = 48000) -> Audio {
        Audio(channels: values.map { [Float](repeating: $0, count: frames) }, sampleRate: sampleRate)
    }

    public static func read(_ path: String) throws -> Audio {
        let reader = try AudioFileReader(path: path)
        var channels = [[Float]](repeating: [], count: reader.channels)
        let block = 4096
        let buffers = (0..<reader.channels).map { _ in UnsafeMutablePointer<Float>.allocate(capacity: block) }
        defer { buffers.forEach { $0.deallocate() } }
        while true {
            let got = buffers.withUnsafeBufferPointer { reader.read(into: $0, frames: block) }
            if got == 0 { break }
            for channel in 0..<reader.channels { channels[channel] += UnsafeBufferPointer(start: buffers[channel], count: got) }
        }
        return Audio(channels: channels, sampleRate: reader.sampleRate)
    }

    /// Writes 32-bit float WAV (or the format the extension says).
    public func write(_ path: String) throws {
        let writer = try AudioFileWriter(path: path, format: try AudioFileFormat(path: path), channels: channels.count,
                                         sampleRate: sampleRate, mode: .atomic)
        let pointers = channels.map { channel -> UnsafeMutablePointer<Float> in
            let pointer = UnsafeMutablePointer<Float>.allocate(capacity: Swift.max(frames, 1))
            pointer.initialize(from: channel, count: frames)
            return pointer
        }
        let list = UnsafeMutableBufferPointer<UnsafePointer<Float>>.allocate(capacity: pointers.count)
        for (index, pointer) in pointers.enumerated() { list[index] = UnsafePointer(pointer) }
        defer {
            pointers.forEach { $0.deallocate() }
            list.deallocate()
        }
        try writer.write(channels: UnsafeBufferPointer(list), frames: frames)
        try writer.finish()
    }

    public func channel(_ index: Int) -> Audio { Audio(channels: [channels[index]], sampleRate: sampleRate) }

    public var peak: Float { channels.flatMap { $0 }.map(abs).max() ?? 0 }
}
