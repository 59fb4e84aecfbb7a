import HostCore
import Synchronization

// Called by: the realtime thread (its context, every cycle); the control
// thread publishes programs and reads the counters through the atomics.

/// Everything the process callback touches, in one preallocated block whose
/// address is the callback's context. Atomics carry what crosses threads;
/// `current` belongs to the realtime thread while the client is active.
struct LiveEngineState: ~Copyable {
    let inputPorts: UnsafeMutableBufferPointer<OpaquePointer>
    /// The JACK client, for the frame time a tap's first frame is played at
    /// (`jack_last_frame_time`, once per take); set before activation.
    var client: OpaquePointer? = nil
    /// `xruns` as the callback last saw it (its sources noted their origins anew then); realtime thread only.
    var xrunsSeen = 0
    let outputPorts: UnsafeMutableBufferPointer<OpaquePointer>
    let commands: LiveCommandQueue

    /// Published by the control thread, taken by the realtime thread.
    let pending = Atomic<UnsafeMutablePointer<ProgramSlot>?>(nil)
    /// Handed back by the realtime thread, freed by the control thread.
    let retired = Atomic<UnsafeMutablePointer<ProgramSlot>?>(nil)
    /// The program being rendered.
    var current: UnsafeMutablePointer<ProgramSlot>? = nil
    /// Worker threads that share each block, when the engine has any; set
    /// before the client is activated.
    var workers: RenderWorkers? = nil

    let cycles = Atomic<Int>(0)
    let frames = Atomic<Int>(0)
    let xruns = Atomic<Int>(0)
    let programSwaps = Atomic<Int>(0)
    /// Signalled by the realtime thread after each swap, for whoever waits for one.
    let programSwapped = PosixSemaphore()
    let commandsApplied = Atomic<Int>(0)
    /// Time spent in the callback, and the part of it inside the program's
    /// render: the difference is the host's own per-block overhead.
    let callbackNanoseconds = Atomic<Int>(0)
    let renderNanoseconds = Atomic<Int>(0)
    /// Set by the buffer-size callback when the size changes; cleared by the owner.
    let bufferSizeChanged = Atomic<Bool>(false)
    let bufferSize = Atomic<Int>(0)
    let serverShutDown = Atomic<Bool>(false)
    /// Set by the port-connect callback: some connection in the server changed.
    let connectionsChanged = Atomic<Bool>(false)
    /// The write end of a pipe the non-realtime callbacks (shutdown, buffer size, sample
    /// rate) signal after setting their flag, so the host's loop wakes for
    /// them (`EventNotifier`); -1: none. Never touched by the process callback.
    let noticeDescriptor = Atomic<Int32>(-1)
    /// Set by the sample-rate callback when the rate differs from the one at start.
    let sampleRateChanged = Atomic<Bool>(false)
    let sampleRate = Atomic<Int>(0)
    /// The running plan's latency and whether it plays files, for JACK's
    /// latency callback (see `reportLiveLatency`).
    let latencyFrames = Atomic<Int>(0)
    let playsFiles = Atomic<Bool>(false)

    /// The MIDI input port controllers arrive on (nil: the session has no
    /// `midi-control:`), set before the client is activated.
    var midiPort: OpaquePointer? = nil
    /// The graph's JACK MIDI inputs and outputs (`midi-input`, `midi-output`
    /// nodes), set before the client is activated.
    var midiInputPorts = UnsafeMutableBufferPointer<OpaquePointer>(start: nil, count: 0)
    var midiOutputPorts = UnsafeMutableBufferPointer<OpaquePointer>(start: nil, count: 0)
    /// What the realtime thread applied from MIDI, for the control thread to announce.
    let midiActivity = MIDIActivityRing(capacity: 1024)
    /// Set while `learn` waits for a controller: every CC seen is reported.
    let midiLearning = Atomic<Bool>(false)
    /// Set in a setlist run: every program change no scene takes is reported.
    let midiReportsPrograms = Atomic<Bool>(false)
    /// Controller-mapped parameters gliding to their values (see `MIDIRamps`).
    let midiRamps = MIDIRamps(capacity: 64)
    /// Scenes gliding to their values (see `SceneGlides`).
    let sceneGlides = SceneGlides(capacity: 256)
    /// Which of a cycle's MIDI control events are applied (the last of each kind).
    let latestMIDIEvents = LatestMIDIEvents()
    /// What every store from outside goes through, ending the glide or ramp of its value.
    var motions: ValueMotions { @_noLocks get { ValueMotions(glides: sceneGlides.slots, ramps: midiRamps.slots) } }
    /// Mapped values sent back to the controllers (`midi-control: { output: … }`).
    var midiFeedback = MIDIFeedback()
    /// A MIDI clock followed and sent (`clock: { input, output }`); ports set before activation.
    var clockInput = MIDIClockInput()
    var clockOutput = MIDIClockOutput()
    /// The musical position plugins are told: JACK's timebase master, or the host's own clock.
    var transport: LiveTransport

    init(inputPorts: UnsafeMutableBufferPointer<OpaquePointer>, outputPorts: UnsafeMutableBufferPointer<OpaquePointer>,
         commandCapacity: Int, bufferSize: Int, sampleRate: Int) {
        self.inputPorts = inputPorts
        self.outputPorts = outputPorts
        commands = LiveCommandQueue(capacity: commandCapacity)
        transport = LiveTransport(tempo: Tempo(), sampleRate: Double(sampleRate))
        self.bufferSize.store(bufferSize, ordering: .relaxed)
        self.sampleRate.store(sampleRate, ordering: .relaxed)
    }
}
