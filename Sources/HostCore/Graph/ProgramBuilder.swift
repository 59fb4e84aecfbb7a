import CCoreShim
import Foundation

/// A buffer before real memory is assigned. `silence` is the shared
/// all-zero buffer that unconnected inputs read.
struct VirtualBuffer: Hashable {
    let id: Int
    static let silence = VirtualBuffer(id: -1)
    /// Not audio: the plan's transport cell, for `ProcessorKernel.transportConnections`.
    static let transport = VirtualBuffer(id: -2)
}

/// Builds a program over virtual buffers, then lowers it to real memory,
/// reusing a buffer once the last op that reads it has run.
struct ProgramBuilder {
    private enum Op {
        case clear(VirtualBuffer)
        case copy(VirtualBuffer, VirtualBuffer, gain: Int?)
        case add(VirtualBuffer, VirtualBuffer, gain: Int?)
        case reset(MemoryReset)
        /// `node`: the plan's node index, for the culprit cell (`CrashReport`).
        case run(UnsafeMutableRawPointer?, KernelRunFunction, reads: [VirtualBuffer], writes: [VirtualBuffer], node: Int32)
        case hook(KernelHook, node: Int32, call: Int32)
        case skipIfSet(flag: Int, count: Int)
        case skipIfClear(flag: Int, count: Int)
        case enableUnlessSet(flag: Int, control: UnsafeMutablePointer<Float>)
        /// Delays a buffer in place through delay line `line`.
        case delay(VirtualBuffer, line: Int)
        /// MIDI buffers (`newMIDIBuffer`): empty one, merge one into another,
        /// a plugin's MIDI port reading one (input) or writing one (output).
        case midiClear(VirtualBuffer)
        case midiMerge(VirtualBuffer, into: VirtualBuffer)
        case midiPort(KernelMIDIPort, VirtualBuffer, isOutput: Bool, node: Int32)

        var reads: [VirtualBuffer] {
            switch self {
            case .copy(let source, _, _): return [source]
            case .add(let source, let destination, _): return [source, destination]
            case .run(_, _, let reads, _, _): return reads
            case .delay(let buffer, _): return [buffer]
            case .midiMerge(let source, let destination): return [source, destination]
            case .midiPort(_, let buffer, let isOutput, _): return isOutput ? [] : [buffer]
            default: return []
            }
        }

        var writes: [VirtualBuffer] {
            switch self {
            case .clear(let buffer): return [buffer]
            case .copy(_, let destination, _), .add(_, let destination, _): return [destination]
            case .run(_, _, _, let writes, _): return writes
            case .delay(let buffer, _): return [buffer]
            case .midiClear(let buffer), .midiMerge(_, let buffer): return [buffer]
            case .midiPort(_, let buffer, let isOutput, _): return isOutput ? [buffer] : []
            default: return []
            }
        }
    }

    private var ops: [Op] = []
    /// Where each node's ops begin (see `TaskPartition`).
    private var nodeStarts: [Int] = []
    private var bufferCount = 0
    private var pinned: Set<Int> = []
    /// Virtual buffers that are MIDI lists, with their list's index. Each
    /// has a list of its own (no reuse: they are few and small), and they
    /// take part in the task partition like audio buffers.
    private var midiLists: [Int: Int] = [:]
    private var gains: [Float] = []
    private var flags: [UInt8] = []
    /// Each delay line's identity (the signal it delays and by how much) and length.
    private var delayLines: [(identity: String, length: Int)] = []
    /// Delayed copies already made, so a source feeding several nodes with
    /// the same delay is delayed once.
    private var delayedCopies: [DelayKey: VirtualBuffer] = [:]

    private struct DelayKey: Hashable {
        let buffer: VirtualBuffer
        let frames: Int
    }
    private var connections: [(handle: UnsafeMutableRawPointer?, connect: KernelConnectFunction, port: UInt32,
                                buffer: VirtualBuffer)] = []

    /// Ops from here on belong to the next node (a node's ops stay on one thread).
    mutating func beginNode() {
        nodeStarts.append(ops.count)
    }

    /// A new buffer. Pinned buffers keep their memory for the whole block
    /// (sources the driver fills, outputs and taps it reads afterwards).
    mutating func newBuffer(pinned: Bool = false) -> VirtualBuffer {
        defer { bufferCount += 1 }
        if pinned { self.pinned.insert(bufferCount) }
        return VirtualBuffer(id: bufferCount)
    }

    /// A new MIDI list (a block's events), with memory of its own.
    mutating func newMIDIBuffer() -> VirtualBuffer {
        let buffer = newBuffer()
        midiLists[buffer.id] = midiLists.count
        return buffer
    }

    /// What a MIDI input port receives: its one feed as it is, several
    /// merged into a new list, none: nil.
    mutating func midiSum(_ feeds: [VirtualBuffer]) -> VirtualBuffer? {
        if feeds.count <= 1 { return feeds.first }
        let result = newMIDIBuffer()
        ops.append(.midiClear(result))
        for feed in feeds { ops.append(.midiMerge(feed, into: result)) }
        return result
    }

    /// A list that stays empty (a MIDI output nothing feeds).
    mutating func emptyMIDIBuffer() -> VirtualBuffer {
        let result = newMIDIBuffer()
        ops.append(.midiClear(result))
        return result
    }

    mutating func pin(_ buffer: VirtualBuffer) {
        if buffer != .silence { pinned.insert(buffer.id) }
    }

    mutating func newFlag(_ value: UInt8) -> Int {
        flags.append(value)
        return flags.count - 1
    }

    private mutating func newGain(_ value: Float) -> Int {
        gains.append(value)
        return gains.count - 1
    }

    /// The sum of `terms` (buffer × gain in dB). One unity term is used as it
    /// is, with no copy; none is silence.
    mutating func sum(_ terms: [(VirtualBuffer, Double)]) -> VirtualBuffer {
        if terms.isEmpty { return .silence }
        if terms.count == 1 && terms[0].1 == 0 { return terms[0].0 }
        let result = newBuffer()
        for (position, (buffer, decibels)) in terms.enumerated() {
            let gain = decibels == 0 ? nil : newGain(Float(Decibels.toLinear(decibels)))
            ops.append(position == 0 ? .copy(buffer, result, gain: gain) : .add(buffer, result, gain: gain))
        }
        return result
    }

    /// `buffer × linearGain` in a new buffer (the gain can change while the plan runs).
    mutating func scaled(_ buffer: VirtualBuffer, linearGain: Float) -> VirtualBuffer {
        let result = newBuffer()
        ops.append(.copy(buffer, result, gain: newGain(linearGain)))
        return result
    }

    /// `buffer` delayed by `frames` (latency compensation): a delayed copy,
    /// made once per buffer and length; the buffer itself when `frames` is 0.
    /// `signal` names what the buffer carries ("drive:1") so the line can
    /// carry on in a later plan of the same graph.
    mutating func delayed(_ buffer: VirtualBuffer, by frames: Int, signal: String) -> VirtualBuffer {
        guard frames > 0, buffer != .silence else { return buffer }
        let key = DelayKey(buffer: buffer, frames: frames)
        if let made = delayedCopies[key] { return made }
        let result = newBuffer()
        ops.append(.copy(buffer, result, gain: nil))
        delayLines.append(("\(signal) +\(frames)", frames))
        ops.append(.delay(result, line: delayLines.count - 1))
        delayedCopies[key] = result
        return result
    }

    /// A file player's gain and pan. A mono file with pan becomes stereo by a
    /// constant-power law (-3 dB each side at centre); a stereo file with pan
    /// is balanced (the far side is turned down linearly).
    mutating func filePlayerStage(_ raw: [VirtualBuffer], gainDecibels: Double, pan: Double?) -> [VirtualBuffer] {
        let gain = Decibels.toLinear(gainDecibels)
        guard let pan else {
            return gainDecibels == 0 ? raw : raw.map { scaled($0, linearGain: Float(gain)) }
        }
        if raw.count == 1 {
            let angle = (pan + 1) * Double.pi / 4
            return [scaled(raw[0], linearGain: Float(gain * cos(angle))),
                    scaled(raw[0], linearGain: Float(gain * sin(angle)))]
        }
        let left = min(1, 1 - pan), right = min(1, 1 + pan)
        return [scaled(raw[0], linearGain: Float(gain * left)), scaled(raw[1], linearGain: Float(gain * right))]
    }

    /// A plugin node: its kernels' runs, skipped in favour of a passthrough
    /// copy while its bypass flag is set. The passthrough is delayed by the
    /// plugin's latency, so bypassing never shifts the node's timing (the
    /// compensation elsewhere in the plan counts on it). A plugin with an
    /// `enabledControl` (its `lv2:enabled` port) bypasses itself instead: it
    /// always runs, told by that control, and fades on its own, with no click.
    /// Returns the node's output buffers.
    ///
    /// MIDI: `midiInputs` (per MIDI input port, what feeds it) go into every
    /// instance after its `fillBeforeRun` hooks, so after the unit's own
    /// frame-0 events; `midiOutputs` (new MIDI buffers, per MIDI output port)
    /// are read from the first instance after its run. Bypassed, a MIDI
    /// output passes the first MIDI input on (or stays empty).
    mutating func unitStage(node: String, index nodeIndex: Int32 = -1, kernels: [ProcessorKernel], inputs: [VirtualBuffer], outputWidth: Int,
                            bypassFlag: Int, latencyFrames: Int = 0,
                            enabledControl: UnsafeMutablePointer<Float>? = nil,
                            midiInputs: [VirtualBuffer?] = [], midiOutputs: [VirtualBuffer] = []) -> [VirtualBuffer] {
        let outputs = (0..<outputWidth).map { _ in newBuffer() }
        var runOps: [Op] = []
        var inputCursor = 0, outputCursor = 0
        for (instance, kernel) in kernels.enumerated() {
            let kernelInputs = kernel.inputPorts.indices.map { inputs[inputCursor + $0] }
            let kernelOutputs = kernel.outputPorts.indices.map { outputs[outputCursor + $0] }
            inputCursor += kernel.inputPorts.count
            outputCursor += kernel.outputPorts.count
            for (port, buffer) in zip(kernel.inputPorts, kernelInputs) {
                connections.append((kernel.handle, kernel.connect, port, buffer))
            }
            for (port, buffer) in zip(kernel.outputPorts, kernelOutputs) {
                connections.append((kernel.handle, kernel.connect, port, buffer))
            }
            for connection in kernel.transportConnections {
                connections.append((connection.handle, connection.connect, connection.port, .transport))
            }
            runOps += kernel.beforeRun.map { .reset($0) }
            runOps += kernel.fillBeforeRun.map { .hook($0, node: nodeIndex, call: FXHOST_CALL_EVENTS) }
            for (port, buffer) in zip(kernel.midiInputs, midiInputs) {
                if let buffer { runOps.append(.midiPort(port, buffer, isOutput: false, node: nodeIndex)) }
            }
            runOps.append(.run(kernel.handle, kernel.run, reads: kernelInputs, writes: kernelOutputs, node: nodeIndex))
            if instance == 0 {
                for (port, buffer) in zip(kernel.midiOutputs, midiOutputs) {
                    runOps.append(.midiPort(port, buffer, isOutput: true, node: nodeIndex))
                }
            }
            if let hook = kernel.afterRun { runOps.append(.hook(hook, node: nodeIndex, call: FXHOST_CALL_WORK_RESPONSE)) }
        }
        if let enabledControl {
            ops.append(.enableUnlessSet(flag: bypassFlag, control: enabledControl))
            ops += runOps
            return outputs
        }
        // Bypassed: output k carries input k (wrapping when there are fewer
        // inputs), delayed by the plugin's latency. The delay lines run every
        // block, bypassed or not, so engaging bypass plays the right history.
        let bypassSources = latencyFrames > 0
            ? inputs.enumerated().map { delayed($1, by: latencyFrames, signal: "bypass \(node):\($0 + 1)") } : inputs
        var passthrough: [Op] = outputs.enumerated().map { index, output in
            bypassSources.isEmpty ? .clear(output) : .copy(bypassSources[index % bypassSources.count], output, gain: nil)
        }
        for output in midiOutputs {
            passthrough.append(.midiClear(output))
            if let input = midiInputs.first ?? nil { passthrough.append(.midiMerge(input, into: output)) }
        }
        ops.append(.skipIfSet(flag: bypassFlag, count: runOps.count + 1))
        ops += runOps
        ops.append(.skipIfClear(flag: bypassFlag, count: passthrough.count))
        ops += passthrough
        return outputs
    }

    private func delayLineBoxes(previous: RenderPlan?) -> [String: DelayLineBox] {
        var boxes: [String: DelayLineBox] = [:]
        for (identity, length) in delayLines {
            boxes[identity] = previous?.delayLine(identity) ?? DelayLineBox(length: length)
        }
        return boxes
    }

    /// The real program: buffers assigned, pointers filled in.
    struct Lowered {
        let memory: PlanMemory
        let assignment: [Int]
        let midiLists: [Int: Int]

        func midiPointer(_ buffer: VirtualBuffer) -> UnsafeMutablePointer<MIDIEventList> {
            memory.midiLists + midiLists[buffer.id]!
        }

        func pointer(_ buffer: VirtualBuffer) -> UnsafeMutablePointer<Float> {
            buffer == .silence ? memory.silence
                : memory.buffers + assignment[buffer.id] * memory.frames
        }
    }

    /// `previous`: the plan this one replaces; its delay lines of the same
    /// identity and length are taken over rather than started from silence.
    ///
    /// A buffer is reused once the last op that touches it has run, and only
    /// by a task that cannot run at the same time as any task that used it
    /// before (that task itself, or one that waits for them all).
    func lower(frames: Int, previous: RenderPlan? = nil) -> Lowered {
        func touched(_ buffers: [VirtualBuffer]) -> [Int] { buffers.filter { $0 != .silence }.map(\.id) }
        let partition = TaskPartition(opCount: ops.count, nodeStarts: nodeStarts.isEmpty ? [0] : nodeStarts,
                                      reads: ops.map { touched($0.reads) }, writes: ops.map { touched($0.writes) })
        // Last op that touches each buffer; pinned buffers live past the end.
        var lastUse = [Int](repeating: -1, count: bufferCount)
        for (index, op) in ops.enumerated() {
            for buffer in op.reads + op.writes where buffer != .silence { lastUse[buffer.id] = index }
        }
        // MIDI lists have memory of their own, never shared with audio.
        func isAudio(_ buffer: VirtualBuffer) -> Bool { buffer != .silence && midiLists[buffer.id] == nil }
        var assignment = [Int](repeating: -1, count: bufferCount)
        var free: [Int] = []
        /// Per real buffer, the tasks that have used it.
        var users: [TaskSet] = []
        /// Per task, the tasks whose buffers it may take over: itself and
        /// every task that finishes before it starts.
        let mayFollow = (0..<partition.taskCount).map { task in
            var tasks = partition.ancestors[task]
            tasks.insert(task)
            return tasks
        }
        func assign(_ id: Int, task: Int?) {
            guard assignment[id] < 0 else { return }
            if let task, let position = free.lastIndex(where: { users[$0].isSubset(of: mayFollow[task]) }) {
                assignment[id] = free.remove(at: position)
            } else {
                assignment[id] = users.count
                users.append(TaskSet(count: partition.taskCount))
            }
        }
        // Pinned buffers get their own memory up front; nothing else reuses it.
        for id in pinned.sorted() { assign(id, task: nil) }
        for (index, op) in ops.enumerated() {
            let task = partition.taskOfOp[index]
            // Outputs are assigned before this op's inputs are freed, so a
            // plugin never gets its input as its output (lv2:inPlaceBroken).
            for buffer in op.writes + op.reads where isAudio(buffer) {
                assign(buffer.id, task: task)
                users[assignment[buffer.id]].insert(task)
            }
            for buffer in Set(op.reads + op.writes) where isAudio(buffer)
                && lastUse[buffer.id] == index && !pinned.contains(buffer.id) {
                free.append(assignment[buffer.id])
            }
        }
        // Buffers no op touches (an unconnected plugin output) still need memory.
        for id in 0..<bufferCount where assignment[id] < 0 && midiLists[id] == nil { assign(id, task: nil) }

        let memory = PlanMemory(bufferCount: users.count, frames: frames, opCount: ops.count,
                                connectionCount: connections.count, gainCount: gains.count,
                                flagCount: flags.count, delayLines: delayLineBoxes(previous: previous),
                                tasks: Self.taskLayout(partition), midiListCount: midiLists.count)
        let lowered = Lowered(memory: memory, assignment: assignment, midiLists: midiLists)
        for (index, value) in gains.enumerated() { memory.gains[index] = value }
        for (index, value) in flags.enumerated() { memory.flags[index] = value }
        let gainBase = UnsafePointer(memory.gains.baseAddress)
        let flagBase = UnsafePointer(memory.flags.baseAddress)
        for (index, op) in ops.enumerated() {
            let real: RenderOp
            switch op {
            case .clear(let buffer):
                real = .clear(lowered.pointer(buffer))
            case .copy(let source, let destination, let gain):
                real = gain.map { .copyScaled(from: lowered.pointer(source), to: lowered.pointer(destination), gain: gainBase! + $0) }
                    ?? .copy(from: lowered.pointer(source), to: lowered.pointer(destination))
            case .add(let source, let destination, let gain):
                real = gain.map { .addScaled(from: lowered.pointer(source), to: lowered.pointer(destination), gain: gainBase! + $0) }
                    ?? .add(from: lowered.pointer(source), to: lowered.pointer(destination))
            case .reset(let reset):
                real = .reset(reset)
            case .run(let handle, let function, _, _, let node):
                real = .run(handle: handle, function: function, node: node)
            case .hook(let hook, let node, let call):
                real = .hook(hook, node: node, call: call)
            case .skipIfSet(let flag, let count):
                real = .skipIfSet(flag: flagBase! + flag, count: count)
            case .skipIfClear(let flag, let count):
                real = .skipIfClear(flag: flagBase! + flag, count: count)
            case .enableUnlessSet(let flag, let control):
                real = .enableUnlessSet(flag: flagBase! + flag, control: control)
            case .delay(let buffer, let line):
                real = .delay(memory.delayLines[delayLines[line].identity]!.line, buffer: lowered.pointer(buffer))
            case .midiClear(let buffer):
                real = .midiClear(lowered.midiPointer(buffer))
            case .midiMerge(let source, let destination):
                real = .midiMerge(from: UnsafePointer(lowered.midiPointer(source)), to: lowered.midiPointer(destination))
            case .midiPort(let port, let buffer, _, let node):
                real = .midiPort(port, list: lowered.midiPointer(buffer), node: node)
            }
            (memory.ops.baseAddress! + index).initialize(to: real)
        }
        for (index, connection) in connections.enumerated() {
            (memory.connections.baseAddress! + index).initialize(to: PortConnection(
                handle: connection.handle, connect: connection.connect, port: connection.port,
                data: connection.buffer == .transport ? UnsafeMutableRawPointer(memory.transport)
                    : UnsafeMutableRawPointer(lowered.pointer(connection.buffer))))
        }
        return lowered
    }

    /// The partition as the realtime thread reads it; none when its tasks
    /// can only run one after another (sharing them out would only cost).
    private static func taskLayout(_ partition: TaskPartition) -> RenderTaskLayout? {
        let width = partition.parallelWidth
        guard width > 1 else { return nil }
        var tasks: [RenderTask] = [], ranges: [OpRange] = [], successors: [Int32] = []
        for task in 0..<partition.taskCount {
            tasks.append(RenderTask(firstRange: Int32(ranges.count), rangeCount: Int32(partition.ranges[task].count),
                                    firstSuccessor: Int32(successors.count),
                                    successorCount: Int32(partition.successors[task].count),
                                    predecessorCount: Int32(partition.predecessorCounts[task])))
            ranges += partition.ranges[task].map { OpRange(start: Int32($0.lowerBound), end: Int32($0.upperBound)) }
            successors += partition.successors[task].map { Int32($0) }
        }
        return .allocate(tasks: tasks, ranges: ranges, successors: successors, parallelWidth: width)
    }
}
