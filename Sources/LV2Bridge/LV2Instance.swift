import CCoreShim
import CLilv
import Foundation
import HostCore

/// One instantiated, activated plugin with every non-main port connected.
/// Owns the instance, its feature data, its atom buffers and output
/// controls; deactivates and frees them in deinit.
final class LV2Instance {
    static let minimumAtomBufferBytes = 8192

    let instance: UnsafeMutablePointer<LilvInstance>
    let kernel: ProcessorKernel
    /// Every atom port's buffer: an input holds an empty sequence after the
    /// reset before each run, for the block's events to be appended
    /// (`lv2_atom_sequence_append_event`, within `capacity` bytes of body);
    /// an output, what the plugin wrote in its last run.
    let atomPorts: [AtomPortBuffer]
    /// The null-terminated feature array this instance was made with.
    let features: UnsafePointer<UnsafePointer<LV2_Feature>?>
    /// Patch messages in and out, when the plugin has message parameters.
    let messages: PatchMessagePort?
    /// The same without the state path features, for lilv's state save and
    /// restore, which add their own (paths relative to a preset bundle): a
    /// plugin takes the first feature of a URI it finds, so ours must not be there.
    let stateFeatures: UnsafePointer<UnsafePointer<LV2_Feature>?>
    private let arena: CArena
    let worker: LV2Worker?
    private let outputControls: UnsafeMutablePointer<Float>
    private let latencyPort: UInt32?
    /// Memory the instance's ports and features point into: kept as long as
    /// it. Its format part changes when the block size does (`adopt`).
    var memory: SharedPortMemory
    /// The ports connected to the format's memory (silence, scratch, the
    /// freewheeling value), reconnected when the instance adopts another.
    let formatPorts: [FormatPort]
    /// The maxBlockLength and nominalBlockLength values in the options
    /// array the instance was made with, kept in step with the block size.
    let blockLengthOptions: BlockLengthOptions
    /// lilv frees an instance through its world: keep the world until then.
    private let world: LV2World
    private var isActive = false

    init(_ context: InstanceContext) throws(UnitError) {
        let description = context.description
        let arena = CArena()
        let urids = context.world.urids
        let sequenceBytes = description.ports.filter { $0.kind == .atom }
            .map { Self.atomBufferBytes($0) }.max() ?? Self.minimumAtomBufferBytes
        let wantsWorker = (description.requiredFeatures + description.optionalFeatures)
            .contains(LV2URI.workerSchedule)
        let worker = wantsWorker ? LV2Worker(mode: context.format.mode) : nil
        let (map, unmap) = context.world.uridFeatures
        let blockLengthOptions = BlockLengthOptions(maximum: arena.store(Int32(context.format.maxBlockFrames)),
                                                    nominal: arena.store(Int32(context.format.maxBlockFrames)))
        let features = Self.makeFeatures(context, arena: arena, map: map, unmap: unmap, worker: worker,
                                         sequenceBytes: sequenceBytes, blockLengths: blockLengthOptions)

        guard let instance = PluginCall.marked(FXHOST_CALL_INSTANTIATE, {
            lilv_plugin_instantiate(context.plugin, context.format.sampleRate, features)
        }) else {
            throw UnitError("`\(description.name)` (\(description.uri)) failed to instantiate at "
                + "\(Int(context.format.sampleRate)) Hz: \(Self.instantiationFailureReason(context.plugin))")
        }
        self.instance = instance
        self.arena = arena
        memory = context.memory
        world = context.world
        self.worker = worker
        self.features = features
        self.blockLengthOptions = blockLengthOptions
        stateFeatures = Self.withoutStatePathFeatures(features, arena: arena)
        outputControls = arena.allocate(Float.self, count: description.ports.count)
        latencyPort = description.ports.first { $0.designation == .latency && $0.direction == .output }?.index

        let descriptor = lilv_instance_get_descriptor(instance)!
        let handle = lilv_instance_get_handle(instance)
        let connect = descriptor.pointee.connect_port!
        var resets: [MemoryReset] = []
        var atomPorts: [AtomPortBuffer] = []
        // The host's time for a plugin that takes it (its first time:Position input and its tempo controls).
        let timeInput = description.ports.contains { $0.takesTimePosition || $0.isDrivenByTransport }
            ? TimePositionInput.make(sequence: nil, capacity: 0, arena: arena, urids: urids, map: map) : nil
        var mainInputs: [UInt32] = [], mainOutputs: [UInt32] = []
        var formatPorts: [FormatPort] = []
        for port in description.ports {
            let data: UnsafeMutableRawPointer?
            switch (port.kind, port.direction) {
            case (.audio, .input) where port.isMainAudio:
                mainInputs.append(port.index)
                formatPorts.append(FormatPort(index: port.index, role: .silence))
                data = UnsafeMutableRawPointer(context.memory.silence)
            case (.audio, .output) where port.isMainAudio:
                mainOutputs.append(port.index)
                formatPorts.append(FormatPort(index: port.index, role: .scratch))
                data = UnsafeMutableRawPointer(context.memory.scratch)
            case (.audio, .input), (.cv, .input):
                formatPorts.append(FormatPort(index: port.index, role: .silence))
                data = UnsafeMutableRawPointer(context.memory.silence)
            case (.audio, .output), (.cv, .output):
                formatPorts.append(FormatPort(index: port.index, role: .scratch))
                data = UnsafeMutableRawPointer(context.memory.scratch)
            case (.control, .input) where port.designation == .freeWheeling:
                formatPorts.append(FormatPort(index: port.index, role: .freeWheeling))
                data = UnsafeMutableRawPointer(context.memory.format.freeWheeling)
            case (.control, .input) where port.isDrivenByTransport:
                data = UnsafeMutableRawPointer(port.designation == .speed ? timeInput!.pointee.speed
                                               : timeInput!.pointee.beatsPerMinute)
            case (.control, .input):
                data = UnsafeMutableRawPointer(context.memory.controls + Int(port.index))
            case (.control, .output):
                data = UnsafeMutableRawPointer(outputControls + Int(port.index))
            case (.atom, _):
                let reset = Self.makeAtomBuffer(port, arena: arena, urids: urids)
                resets.append(reset)
                data = reset.destination
                let buffer = AtomPortBuffer(port: port, sequence: reset.destination.assumingMemoryBound(to: LV2_Atom_Sequence.self),
                                            capacity: UInt32(Self.atomBufferBytes(port) - MemoryLayout<LV2_Atom>.size))
                atomPorts.append(buffer)
                if port.takesTimePosition, let timeInput, timeInput.pointee.sequence == nil {
                    timeInput.pointee.sequence = buffer.sequence
                    timeInput.pointee.capacity = buffer.capacity
                }
            case (.other, _):
                data = nil // only optional ones get here: the unit refuses the rest
            }
            connect(handle, port.index, data)
        }
        for reset in resets { reset.destination.copyMemory(from: reset.source, byteCount: reset.byteCount) }
        self.atomPorts = atomPorts
        self.formatPorts = formatPorts
        messages = PatchMessagePort.make(context, atomPorts: atomPorts, worker: worker)

        // Frame-0 events in time order: a unit's own messages first (the
        // message port's fill hook), then its time; graph MIDI after both.
        // The message port's after-run hook delivers the worker's
        // responses, then reads notify.
        let timeHooks = timeInput.map { [KernelHook(function: TimePositionInput.hook, context: UnsafeMutableRawPointer($0))] } ?? []
        var kernel = ProcessorKernel(
            handle: handle, run: descriptor.pointee.run!, connect: connect,
            inputPorts: mainInputs, outputPorts: mainOutputs, beforeRun: resets,
            fillBeforeRun: (messages.map { [$0.fillHook] } ?? []) + timeHooks,
            afterRun: messages?.afterRunHook ?? worker?.afterRunHook)
        if let timeInput {
            kernel.transportConnections = [PortConnection(handle: UnsafeMutableRawPointer(timeInput),
                                                          connect: TimePositionInput.connect, port: 0, data: nil)]
        }
        // Graph MIDI (any frame) goes in after the fillBeforeRun hooks' frame-0 events.
        (kernel.midiInputs, kernel.midiOutputs) = Self.makeMIDIPorts(atomPorts, arena: arena, urids: urids)
        self.kernel = kernel

        let workerInterface = lilv_instance_get_extension_data(instance, LV2URI.workerInterface)?
            .assumingMemoryBound(to: LV2_Worker_Interface.self)
        worker?.attach(interface: workerInterface, plugin: handle)
        PluginCall.marked(FXHOST_CALL_ACTIVATE) { lilv_instance_activate(instance) }
        isActive = true
    }

    deinit {
        // The worker thread calls work() on the instance: it must be gone
        // before deactivate (no instantiation-class call may overlap another).
        worker?.stop()
        PluginSetupGate.process.alone {
            PluginCall.marked(FXHOST_CALL_CLEANUP) {
                if isActive { lilv_instance_deactivate(instance) }
                lilv_instance_free(instance)
            }
        }
    }

    /// Runs `body` with the worker answering at once (live, before its
    /// thread starts; offline it always does).
    func withSynchronousWorker(_ body: () -> Void) {
        if let worker { worker.synchronously(body) } else { body() }
    }

    /// Live, starts the worker thread; call once the instance is ready to run.
    func startWorker() throws(UnitError) { try worker?.start() }

    /// Deactivates and activates the instance, which LV2 defines as a reset,
    /// dropping worker requests from before. Only before `startWorker`.
    func reset() {
        PluginCall.marked(FXHOST_CALL_ACTIVATE) { lilv_instance_deactivate(instance) }
        worker?.discardPending()
        PluginCall.marked(FXHOST_CALL_ACTIVATE) { lilv_instance_activate(instance) }
    }

    /// The latency the plugin last wrote to its latency port, in frames.
    var latencyFrames: Int {
        guard let latencyPort else { return 0 }
        let value = outputControls[Int(latencyPort)]
        return value.isFinite && value > 0 ? Int(value.rounded()) : 0
    }


    /// Restores a state's properties into this instance (port values are the unit's job).
    func restore(_ state: OpaquePointer) {
        PluginCall.marked(FXHOST_CALL_STATE_RESTORE) { lilv_state_restore(state, instance, nil, nil, 0, stateFeatures) }
    }

    /// Restores the plugin's default state when it asks for it
    /// (state:loadDefaultState). Done after the latency probe's reset, like a
    /// preset, so worker requests the restore makes are not discarded.
    func loadDefaultStateIfRequested(_ context: InstanceContext) {
        let features = context.description.requiredFeatures + context.description.optionalFeatures
        guard features.contains(LV2URI.loadDefaultState) else { return }
        let uri = lilv_new_uri(context.world.world, context.description.uri)
        defer { lilv_node_free(uri) }
        guard let state = lilv_state_new_from_world(context.world.world, context.world.uridFeatures.map, uri) else { return }
        defer { lilv_state_free(state) }
        restore(state)
    }

    /// Why lilv_plugin_instantiate returned nothing: the library does not
    /// load (dlerror says why), or the plugin's own instantiate() refused.
    private static func instantiationFailureReason(_ plugin: OpaquePointer) -> String {
        guard let uri = Lilv.string(lilv_plugin_get_library_uri(plugin)),
              let path = lilv_file_uri_parse(uri, nil) else {
            return "the plugin library has no file path"
        }
        defer { lilv_free(path) }
        if let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) {
            dlclose(library)
            return "the plugin's instantiate() refused (see its messages above)"
        }
        let reason = dlerror().map { String(cString: $0) } ?? "unknown error"
        return "its library does not load (\(reason))"
    }

    /// The kernel's MIDI ports, in the order of `LV2Unit.midiInputs` and
    /// `midiOutputs`: each atom port that supports `midi:MidiEvent`.
    private static func makeMIDIPorts(_ atomPorts: [AtomPortBuffer], arena: CArena,
                                      urids: URIDMap) -> (inputs: [KernelMIDIPort], outputs: [KernelMIDIPort]) {
        var inputs: [KernelMIDIPort] = [], outputs: [KernelMIDIPort] = []
        for atom in atomPorts where atom.port.supportsMIDI {
            let scratch = arena.allocate(UInt64.self, count: (AtomMIDIPort.scratchBytes + 7) / 8)
            let context = arena.store(AtomMIDIPort(
                sequence: atom.sequence, capacity: atom.capacity, midiEventType: urids.map(LV2URI.midiEvent),
                sequenceType: urids.map(LV2URI.atomSequence), scratch: UnsafeMutableRawPointer(scratch)))
            if atom.port.direction == .input {
                inputs.append(KernelMIDIPort(function: AtomMIDIPort.write, context: UnsafeMutableRawPointer(context)))
            } else {
                outputs.append(KernelMIDIPort(function: AtomMIDIPort.read, context: UnsafeMutableRawPointer(context)))
            }
        }
        return (inputs, outputs)
    }

    /// Atom buffers hold at least the port's rsz:minimumSize and 8 KiB.
    static func atomBufferBytes(_ port: PortDescription) -> Int {
        max(port.minimumSize ?? 0, minimumAtomBufferBytes)
    }

    /// An atom port's buffer and the header copied into it before each run:
    /// inputs get an empty sequence, outputs a chunk announcing their capacity.
    private static func makeAtomBuffer(_ port: PortDescription, arena: CArena, urids: URIDMap) -> MemoryReset {
        let bytes = atomBufferBytes(port)
        let buffer = arena.allocate(UInt64.self, count: (bytes + 7) / 8) // 8-byte aligned, as atoms require
        if port.direction == .input {
            let header = arena.store(LV2_Atom_Sequence(
                atom: LV2_Atom(size: UInt32(MemoryLayout<LV2_Atom_Sequence_Body>.size),
                               type: urids.map(LV2URI.atomSequence)),
                body: LV2_Atom_Sequence_Body(unit: 0, pad: 0)))
            return MemoryReset(destination: UnsafeMutableRawPointer(buffer), source: UnsafeRawPointer(header),
                               byteCount: MemoryLayout<LV2_Atom_Sequence>.size)
        }
        let header = arena.store(LV2_Atom(size: UInt32(bytes - MemoryLayout<LV2_Atom>.size),
                                          type: urids.map(LV2URI.atomChunk)))
        return MemoryReset(destination: UnsafeMutableRawPointer(buffer), source: UnsafeRawPointer(header),
                           byteCount: MemoryLayout<LV2_Atom>.size)
    }

    /// The null-terminated feature array handed to instantiate() and state restore.
    private static func makeFeatures(_ context: InstanceContext, arena: CArena,
                                     map: UnsafeMutablePointer<LV2_URID_Map>,
                                     unmap: UnsafeMutablePointer<LV2_URID_Unmap>, worker: LV2Worker?,
                                     sequenceBytes: Int,
                                     blockLengths: BlockLengthOptions) -> UnsafePointer<UnsafePointer<LV2_Feature>?> {
        var list: [(String, UnsafeMutableRawPointer?)] = [
            (LV2URI.uridMap, UnsafeMutableRawPointer(map)),
            (LV2URI.uridUnmap, UnsafeMutableRawPointer(unmap)),
            (LV2URI.options, UnsafeMutableRawPointer(makeOptions(context, arena: arena, sequenceBytes: sequenceBytes,
                                                                 blockLengths: blockLengths))),
            (LV2URI.boundedBlockLength, nil),
            (LV2URI.loadDefaultState, nil),
            (LV2URI.isLive, nil),
            (LV2URI.inPlaceBroken, nil),
            (LV2URI.hardRTCapable, nil),
        ]
        if let log = context.log { list.append((LV2URI.log, UnsafeMutableRawPointer(log))) }
        list += StatePathFeatures.make(in: arena, scratchFolder: context.scratchFolder)
        if let worker { list.append((LV2URI.workerSchedule, UnsafeMutableRawPointer(worker.makeScheduleFeature(in: arena)))) }
        let array = arena.allocate(UnsafePointer<LV2_Feature>?.self, count: list.count + 1)
        for (index, (uri, data)) in list.enumerated() {
            array[index] = UnsafePointer(arena.store(LV2_Feature(URI: arena.cString(uri), data: data)))
        }
        array[list.count] = nil
        return UnsafePointer(array)
    }

    private static func withoutStatePathFeatures(_ features: UnsafePointer<UnsafePointer<LV2_Feature>?>,
                                                 arena: CArena) -> UnsafePointer<UnsafePointer<LV2_Feature>?> {
        let excluded: Set<String> = [LV2URI.stateMapPath, LV2URI.stateMakePath, LV2URI.stateFreePath]
        var kept: [UnsafePointer<LV2_Feature>?] = []
        var index = 0
        while let feature = features[index] {
            if !excluded.contains(String(cString: feature.pointee.URI)) { kept.append(feature) }
            index += 1
        }
        let array = arena.allocate(UnsafePointer<LV2_Feature>?.self, count: kept.count + 1)
        for (index, feature) in kept.enumerated() { array[index] = feature }
        array[kept.count] = nil
        return UnsafePointer(array)
    }

    /// options:options — sample rate, block lengths and sequence size.
    private static func makeOptions(_ context: InstanceContext, arena: CArena, sequenceBytes: Int,
                                    blockLengths: BlockLengthOptions) -> UnsafeMutablePointer<LV2_Options_Option> {
        let urids = context.world.urids
        let intType = urids.map(LV2URI.atomInt), floatType = urids.map(LV2URI.atomFloat)
        let maxBlock = Int32(context.format.maxBlockFrames)
        // Blocks may be shorter than the maximum (the last block of a file), down to 1 frame.
        let minBlock: Int32 = 1
        func option(_ key: String, _ value: UnsafeRawPointer, type: LV2_URID, size: Int) -> LV2_Options_Option {
            LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: urids.map(key),
                               size: UInt32(size), type: type, value: value)
        }
        var options = [
            option(LV2URI.sampleRate, arena.store(Float(context.format.sampleRate)), type: floatType, size: 4),
            option(LV2URI.minBlockLength, arena.store(minBlock), type: intType, size: 4),
            option(LV2URI.maxBlockLength, blockLengths.maximum, type: intType, size: 4),
            option(LV2URI.nominalBlockLength, blockLengths.nominal, type: intType, size: 4),
            option(LV2URI.sequenceSize, arena.store(Int32(sequenceBytes)), type: intType, size: 4),
        ]
        // A plugin that starts threads of its own (x42's convolvers) makes
        // them SCHED_FIFO unless told: without realtime rights (offline, or
        // a user not allowed it) they would fail to start, and it stays silent.
        let policy = ThreadPolicy.forPluginThreads(live: context.format.mode == .live)
        options.append(option(LV2URI.threadSchedulingPolicy, arena.store(policy), type: intType, size: 4))
        if minBlock == maxBlock {
            options.append(option(LV2URI.fixedBlockLength, arena.store(maxBlock), type: intType, size: 4))
        }
        options.append(LV2_Options_Option(context: LV2_OPTIONS_INSTANCE, subject: 0, key: 0, size: 0, type: 0, value: nil))
        return arena.store(array: options)
    }
}
