import CShim
import CJack
import HostCore
import Synchronization

/// Everything the process callback touches, in one preallocated block whose
/// address is the callback's context. Atomics carry what crosses threads;
/// `current` belongs to the realtime thread while the client is active.
struct LiveEngineState: ~Copyable {
    let inputPorts: UnsafeMutableBufferPointer<OpaquePointer>
    let outputPorts: UnsafeMutableBufferPointer<OpaquePointer>
    let commands: LiveCommandQueue

    /// Published by the control thread, taken by the realtime thread.
    let pending = Atomic<UnsafeMutablePointer<ProgramSlot>?>(nil)
    /// Handed back by the realtime thread, freed by the control thread.
    let retired = Atomic<UnsafeMutablePointer<ProgramSlot>?>(nil)
    /// The program being rendered.
    var current: UnsafeMutablePointer<ProgramSlot>? = nil

    let cycles = Atomic<Int>(0)
    let frames = Atomic<Int>(0)
    let xruns = Atomic<Int>(0)
    let programSwaps = Atomic<Int>(0)
    let commandsApplied = Atomic<Int>(0)
    /// Set by the buffer-size callback when the size changes; cleared by the owner.
    let bufferSizeChanged = Atomic<Bool>(false)
    let bufferSize = Atomic<Int>(0)
    let serverShutDown = Atomic<Bool>(false)

    init(inputPorts: UnsafeMutableBufferPointer<OpaquePointer>, outputPorts: UnsafeMutableBufferPointer<OpaquePointer>,
         commandCapacity: Int, bufferSize: Int) {
        self.inputPorts = inputPorts
        self.outputPorts = outputPorts
        commands = LiveCommandQueue(capacity: commandCapacity)
        self.bufferSize.store(bufferSize, ordering: .relaxed)
    }
}

/// One JACK cycle: apply queued commands, swap in a published program, then
/// render `frameCount` frames in chunks of at most the program's block size,
/// copying JACK inputs in and outputs out around each chunk.
@_noLocks
func runLiveCycle(_ state: UnsafeMutablePointer<LiveEngineState>, frameCount: Int) {
    _unsafePerformance { fxhost_rtsan_enter() }

    // Commands first, then the swap: a command queued before a publish still
    // lands in memory the old program's owner keeps alive.
    let applied = state.pointee.commands.applyPending()
    if applied > 0 { state.pointee.commandsApplied.wrappingAdd(applied, ordering: .relaxed) }
    swapInPublishedProgram(state)

    let frames = UInt32(truncatingIfNeeded: frameCount)
    if let slot = state.pointee.current {
        let program = slot.pointee.program
        let inputs = slot.pointee.inputs
        let outputs = slot.pointee.outputs
        let blockLimit = max(program.maxBlockFrames, 1)
        var offset = 0
        while offset < frameCount {
            let chunk = min(blockLimit, frameCount - offset)
            let byteCount = chunk * MemoryLayout<Float>.stride
            for index in 0..<inputs.count {
                let port = state.pointee.inputPorts[index]
                _unsafePerformance {
                    let source = jack_port_get_buffer(port, frames)!.assumingMemoryBound(to: Float.self) + offset
                    UnsafeMutableRawPointer(inputs[index]).copyMemory(from: source, byteCount: byteCount)
                }
            }
            program.render(frames: chunk)
            for index in 0..<outputs.count {
                let port = state.pointee.outputPorts[index]
                _unsafePerformance {
                    let destination = jack_port_get_buffer(port, frames)!.assumingMemoryBound(to: Float.self) + offset
                    UnsafeMutableRawPointer(destination).copyMemory(from: outputs[index], byteCount: byteCount)
                }
            }
            offset += chunk
        }
    } else {
        // Nothing published yet: silence, not whatever the buffers held.
        for port in state.pointee.outputPorts {
            _unsafePerformance {
                let destination = jack_port_get_buffer(port, frames)!
                destination.initializeMemory(as: Float.self, repeating: 0, count: frameCount)
            }
        }
    }

    state.pointee.cycles.wrappingAdd(1, ordering: .relaxed)
    state.pointee.frames.wrappingAdd(frameCount, ordering: .relaxed)
    _unsafePerformance { fxhost_rtsan_exit() }
}

/// Takes a published program when there is somewhere to hand the current one
/// back (the retired slot is empty), connects its ports on this thread, and
/// retires the old one for the control thread to free.
@_noLocks
func swapInPublishedProgram(_ state: UnsafeMutablePointer<LiveEngineState>) {
    let old = state.pointee.current
    if old != nil && state.pointee.retired.load(ordering: .acquiring) != nil { return }
    guard let next = state.pointee.pending.exchange(nil, ordering: .acquiringAndReleasing) else { return }
    next.pointee.program.connectPorts()
    if let old { state.pointee.retired.store(old, ordering: .releasing) }
    state.pointee.current = next
    state.pointee.programSwaps.wrappingAdd(1, ordering: .relaxed)
}
