import CJack
import JackIO
import Synchronization

/// A second JACK client for measuring an engine from outside: one output
/// port that plays a constant, and input ports that record every frame,
/// with the JACK frame time it was played at, into preallocated memory (up
/// to `capacity` frames, then it stops).
package final class LoopbackClient {
    package let client: JackClient
    package let source: JackPort
    package let recordPorts: [JackPort]
    private let state: UnsafeMutablePointer<LoopbackState>

    package init(server: String, name: String = "loopback", constant: Float = 1, channels: Int, capacity: Int) throws {
        client = try JackClient(name: name, server: server)
        source = try client.registerAudioPort("source", isInput: false)
        var ports: [JackPort] = []
        for channel in 0..<channels { ports.append(try client.registerAudioPort("record_\(channel + 1)", isInput: true)) }
        recordPorts = ports
        state = .allocate(capacity: 1)
        state.initialize(to: LoopbackState(client: try client.handle(), source: source.handle, inputs: ports.map(\.handle),
                                           constant: constant, capacity: capacity))
        let process: JackProcessCallback = { frames, context in
            context!.assumingMemoryBound(to: LoopbackState.self).pointee.cycle(frames: Int(frames))
            return 0
        }
        jack_set_process_callback(try client.handle(), process, state)
        try client.activate()
    }

    deinit {
        client.close()
        state.pointee.release()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    package var recordedFrames: Int { state.pointee.written.load(ordering: .acquiring) }

    /// The last recorded frame of every channel, or nil before the first.
    package var latestFrame: [Float]? {
        let count = recordedFrames
        guard count > 0 else { return nil }
        return (0..<recordPorts.count).map { state.pointee.channels[$0][count - 1] }
    }

    /// The JACK frame time each recorded frame was played at (modulo 2^32, as JACK counts).
    package func frameTimes() -> [Int] {
        Array(UnsafeBufferPointer(start: state.pointee.frameTimes, count: recordedFrames))
    }

    /// Everything recorded so far, per channel.
    package func recording() -> [[Float]] {
        let count = recordedFrames
        return (0..<recordPorts.count).map { Array(UnsafeBufferPointer(start: state.pointee.channels[$0], count: count)) }
    }
}

private struct LoopbackState: ~Copyable {
    let client: OpaquePointer
    let source: OpaquePointer
    let inputs: UnsafeMutableBufferPointer<OpaquePointer>
    let channels: UnsafeMutableBufferPointer<UnsafeMutablePointer<Float>>
    let frameTimes: UnsafeMutablePointer<Int>
    let constant: Float
    let capacity: Int
    let written = Atomic<Int>(0)

    init(client: OpaquePointer, source: OpaquePointer, inputs: [OpaquePointer], constant: Float, capacity: Int) {
        self.client = client
        self.source = source
        self.inputs = .allocate(capacity: inputs.count)
        _ = self.inputs.initialize(from: inputs)
        channels = .allocate(capacity: inputs.count)
        for index in 0..<inputs.count {
            let memory = UnsafeMutablePointer<Float>.allocate(capacity: capacity)
            memory.initialize(repeating: .nan, count: capacity)
            channels[index] = memory
        }
        frameTimes = .allocate(capacity: capacity)
        frameTimes.initialize(repeating: -1, count: capacity)
        self.constant = constant
        self.capacity = capacity
    }

    func release() {
        for memory in channels { memory.deallocate() }
        channels.deallocate()
        frameTimes.deallocate()
        inputs.deallocate()
    }

    func cycle(frames: Int) {
        let out = jack_port_get_buffer(source, UInt32(frames))!.assumingMemoryBound(to: Float.self)
        for frame in 0..<frames { out[frame] = constant }
        let start = written.load(ordering: .relaxed)
        let count = min(frames, capacity - start)
        guard count > 0 else { return }
        for (index, port) in inputs.enumerated() {
            let data = jack_port_get_buffer(port, UInt32(frames))!.assumingMemoryBound(to: Float.self)
            (channels[index] + start).update(from: data, count: count)
        }
        let time = Int(jack_last_frame_time(client))
        for frame in 0..<count { frameTimes[start + frame] = (time + frame) & 0xFFFF_FFFF }
        written.store(start + count, ordering: .releasing)
    }
}
