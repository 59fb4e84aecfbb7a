import CCoreShim
import CLilv
import CLV2Shim
import Foundation
import HostCore

/// One LV2 plugin in a graph: its parameters and presets, and as many
/// instances as the graph's channels need (a mono plugin on a stereo stream
/// runs twice). Input controls live in one block of memory every instance
/// reads, so a parameter change reaches all of them.
///
/// Not thread-safe: call it from one thread, and not while the realtime
/// thread runs its kernels when applying a preset that restores plugin
/// state (LV2 state restore must not overlap run()).
package final class LV2Unit: ProcessingUnit {
    /// Its presets grow when one is saved (`savePreset`).
    package internal(set) var plugin: PluginDescription
    package let displayName: String
    package var identifier: String? { plugin.uri }
    package var presetLabels: [String] { plugin.presets.map(\.label) }
    package let inputPorts: [AudioPortInfo]
    package let outputPorts: [AudioPortInfo]
    package let parameters: [ParameterInfo]
    /// Atom ports that take or give `midi:MidiEvent`, by symbol (the
    /// kernels' `midiInputs` and `midiOutputs` follow this order).
    package let midiInputs: [String]
    package let midiOutputs: [String]

    let world: LV2World
    let lilvPlugin: OpaquePointer
    /// Input control values by port index, shared by every instance.
    var controls: UnsafeMutablePointer<Float> { memory.controls }
    var log: UnsafeMutablePointer<LV2_Log_Log>? { memory.log }
    private let memory: UnitMemory
    let parameterPorts: [String: UInt32]
    /// The format of `instances`; a block-size change may move them to
    /// another (`adjustBlockSize`).
    var format: RenderFormat?
    /// Memory of the current format's instances (silence, scratch, freewheeling).
    var formatMemory: FormatMemory?
    var instances: [LV2Instance] = []
    /// The instances of the format before this one, to take up again.
    var earlier: EarlierInstances?
    /// The last preset with plugin state (or a state snapshot), restored into instances made later.
    var presetState: OpaquePointer?
    /// Message parameters as set and reported (`LV2Unit+Properties`).
    var propertyRecord = PropertyRecord()
    /// Files the plugin creates (`state:makePath`); copied into a preset
    /// bundle when saved, removed with the unit. Made on first use.
    let scratchFolder = FileManager.default.temporaryDirectory
        .appendingPathComponent("fxhost-scratch-\(UUID().uuidString)").path
    /// Set while `presetParameterValues` reads a preset: port values land here, not in `controls`.
    private var collectedPresetValues: [String: Float]?

    /// Checks that this host can run the plugin; instances come with `prepareInstances`.
    package init(plugin: PluginDescription, catalog: PluginCatalog) throws(UnitError) {
        guard let lilvPlugin = catalog.lilvPlugin(plugin.uri) else {
            throw UnitError("no installed LV2 plugin has the URI \(plugin.uri)")
        }
        if let feature = plugin.unsupportedFeatures.first {
            throw UnitError("`\(plugin.name)` (\(plugin.uri)) requires the LV2 feature \(feature), which fxhost does not provide")
        }
        if let port = plugin.ports.first(where: { $0.kind == .other && !$0.isOptional }) {
            throw UnitError("`\(plugin.name)` (\(plugin.uri)) has port `\(port.symbol)` of a type fxhost cannot connect")
        }
        self.plugin = plugin
        self.world = catalog.world
        self.lilvPlugin = lilvPlugin
        displayName = plugin.name
        inputPorts = plugin.mainAudioInputs.map { AudioPortInfo(symbol: $0.symbol, name: $0.name) }
        outputPorts = plugin.mainAudioOutputs.map { AudioPortInfo(symbol: $0.symbol, name: $0.name) }
        midiInputs = plugin.ports.filter { $0.supportsMIDI && $0.direction == .input }.map(\.symbol)
        midiOutputs = plugin.ports.filter { $0.supportsMIDI && $0.direction == .output }.map(\.symbol)
        let parameterDescriptions = plugin.ports.filter {
            $0.kind == .control && $0.direction == .input && $0.designation == nil
        }
        parameters = parameterDescriptions.map(ParameterRules.info)
        parameterPorts = Dictionary(parameterDescriptions.map { ($0.symbol, $0.index) }, uniquingKeysWith: { a, _ in a })
        let urids = catalog.world.urids
        memory = UnitMemory(portCount: plugin.ports.count,
                            log: fxhost_log_create(plugin.name, urids.map(LV2URI.logError),
                                                   urids.map(LV2URI.logWarning), urids.map(LV2URI.logTrace)))
        for (info, port) in zip(parameters, parameterDescriptions) { controls[Int(port.index)] = info.defaultValue }
        for port in plugin.ports where port.designation == .enabled && port.direction == .input {
            controls[Int(port.index)] = 1
        }
    }

    deinit {
        if let presetState { lilv_state_free(presetState) }
        try? FileManager.default.removeItem(atPath: scratchFolder)
    }

    // MARK: Parameters

    package func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) {
        // A message parameter too (a path from the working directory), for
        // callers that know no patch folder.
        if isMessageParameter(symbol) {
            _ = try setMessageParameter(symbol, to: value, relativeTo: nil)
            return
        }
        let number = try checkedValue(symbol, value) // throws for an unknown symbol first
        controls[Int(parameterPorts[symbol]!)] = number
    }

    package var enabledControl: UnsafeMutablePointer<Float>? {
        plugin.ports.first { $0.designation == .enabled && $0.direction == .input && $0.kind == .control }
            .map { controls + Int($0.index) }
    }

    /// Plugin libraries are loaded once per process: one gate for all.
    package var threadingGate: (any UnitThreadingGate)? { PluginSetupGate.process }

    package func controlPointer(symbol: String) -> UnsafeMutablePointer<Float>? {
        parameterPorts[symbol].map { controls + Int($0) }
    }

    package func checkedValue(_ symbol: String, _ value: ParameterValue) throws(UnitError) -> Float {
        guard let index = parameters.firstIndex(where: { $0.symbol == symbol }) else {
            if let driven = plugin.ports.first(where: { $0.symbol == symbol && $0.isDrivenByTransport }) {
                throw UnitError("`\(symbol)` of `\(displayName)` follows the host's "
                    + (driven.designation == .speed ? "transport (time:speed): use `transport start|stop`"
                        : "tempo (time:beatsPerMinute): set the patch's `tempo:` or use `tempo BPM`"))
            }
            throw UnitError("`\(displayName)` has no parameter `\(symbol)`",
                            suggestion: Suggestion.didYouMean(symbol, in: parameters.map(\.symbol)))
        }
        return try ParameterRules.check(value, for: parameters[index])
    }

    package func parameterValue(_ symbol: String) -> Float? {
        parameterPorts[symbol].map { controls[Int($0)] }
    }


    // MARK: Presets

    package func applyPreset(_ name: String) throws(UnitError) {
        let state = try loadPresetState(findPreset(name))
        // Port values go to the shared controls; plugin state goes to each instance.
        restorePortValues(state)
        if let presetState { lilv_state_free(presetState) }
        presetState = nil
        if lilv_state_get_num_properties(state) > 0 {
            for instance in instances { instance.restore(state) }
            propertyRecord.forgetSent()
            presetState = state
        } else {
            lilv_state_free(state)
        }
    }

    /// A preset's parameter values, without applying them, for a live host
    /// to store through its realtime queue; `carriesState` when the preset
    /// also holds plugin state, which only `applyPreset` restores.
    package func presetParameterValues(_ name: String) throws(UnitError) -> (values: [String: Float], carriesState: Bool)? {
        let state = try loadPresetState(findPreset(name))
        defer { lilv_state_free(state) }
        collectedPresetValues = [:]
        restorePortValues(state)
        let values = collectedPresetValues ?? [:]
        collectedPresetValues = nil
        return (values, lilv_state_get_num_properties(state) > 0)
    }

    private func loadPresetState(_ preset: PresetDescription) throws(UnitError) -> OpaquePointer {
        let node = lilv_new_uri(world.world, preset.uri)
        defer { lilv_node_free(node) }
        lilv_world_load_resource(world.world, node)
        guard let state = lilv_state_new_from_world(world.world, world.uridFeatures.map, node) else {
            throw UnitError("preset \"\(preset.label)\" of `\(displayName)` could not be loaded from \(preset.uri)")
        }
        return state
    }

    private func restorePortValues(_ state: OpaquePointer) {
        lilv_state_restore(state, nil, { symbol, context, value, size, type in
            guard let symbol, let context, let value else { return }
            Unmanaged<LV2Unit>.fromOpaque(context).takeUnretainedValue()
                .setPortValue(String(cString: symbol), value: value, size: size, type: type)
        }, Unmanaged.passUnretained(self).toOpaque(), 0, nil)
    }

    private func findPreset(_ name: String) throws(UnitError) -> PresetDescription {
        let wanted = name.lowercased()
        if let preset = plugin.presets.first(where: { $0.uri == name || $0.label.lowercased() == wanted }) {
            return preset
        }
        guard !plugin.presets.isEmpty else { throw UnitError("`\(displayName)` has no presets") }
        let labels = plugin.presets.map(\.label)
        throw UnitError("`\(displayName)` has no preset \"\(name)\"; its presets are: "
                            + labels.map { "\"\($0)\"" }.joined(separator: ", "),
                        suggestion: Suggestion.didYouMean(name, in: labels))
    }

    /// A preset's port value (lilv hands it as an atom of some numeric type).
    /// Ports the host drives (lv2:enabled, lv2:freeWheeling) keep their values.
    private func setPortValue(_ symbol: String, value: UnsafeRawPointer, size: UInt32, type: UInt32) {
        guard let index = parameterPorts[symbol] else { return }
        let urids = world.urids
        let number: Float
        switch type {
        case urids.map(LV2URI.atomFloat) where size >= 4: number = value.loadUnaligned(as: Float.self)
        case urids.map(LV2URI.atomDouble) where size >= 8: number = Float(value.loadUnaligned(as: Double.self))
        case urids.map(LV2URI.atomInt) where size >= 4: number = Float(value.loadUnaligned(as: Int32.self))
        case urids.map(LV2URI.atomLong) where size >= 8: number = Float(value.loadUnaligned(as: Int64.self))
        case urids.map(LV2URI.atomBool) where size >= 4: number = value.loadUnaligned(as: Int32.self) != 0 ? 1 : 0
        default: return
        }
        if collectedPresetValues != nil {
            collectedPresetValues![symbol] = number
        } else {
            controls[Int(index)] = number
        }
    }

    // MARK: Instances

    package func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit {
        if format != self.format { resetFormat(format) }
        let formatMemory = self.formatMemory!
        let context = InstanceContext(
            world: world, plugin: lilvPlugin, description: plugin, format: format,
            memory: SharedPortMemory(unit: memory, format: formatMemory),
            log: log, scratchFolder: scratchFolder)
        while instances.count < count {
            // Instantiation-class calls and probe runs: LV2's rules want them alone.
            let instance = try PluginSetupGate.process.alone { () throws(UnitError) -> LV2Instance in
                let instance = try LV2Instance(context)
                // The latency probe ends in a reset that drops pending worker
                // requests, so it comes before any state is restored: a restore
                // may ask the worker to load a file (an impulse response).
                if reportsLatency { measureLatency(instance, frames: format.maxBlockFrames) }
                instance.loadDefaultStateIfRequested(context)
                let before = messageOutcome()
                let failuresBefore = instance.worker?.progress.failures ?? 0
                if let presetState { instance.restore(presetState) }
                sendRecordedProperties(to: instance)
                // Settled with the files loaded, so a file the plugin cannot
                // load is an error here, for `check` as for a render.
                if !propertyRecord.sent.isEmpty || (reportsLatency && presetState != nil) {
                    settleLatency(instance, frames: format.maxBlockFrames)
                    if (instance.worker?.progress.failures ?? 0) > failuresBefore {
                        throw couldNotApply(propertyRecord.sent.isEmpty ? "its preset's state" : messageParametersSetText,
                                            since: before)
                    }
                }
                try instance.startWorker()
                return instance
            }
            instances.append(instance)
        }
        // Each kernel keeps its instance alive for the plans that use it.
        let kernels = instances.prefix(count).map { instance in
            var kernel = instance.kernel
            kernel.owner = instance
            return kernel
        }
        return PreparedUnit(kernels: kernels, latencyFrames: instances.first?.latencyFrames ?? 0)
    }

    var reportsLatency: Bool {
        plugin.ports.contains { $0.designation == .latency && $0.direction == .output }
    }

    /// A plugin writes its latency port only in run(), but a plan must know
    /// it before the first block to compensate it. So, as Ardour does
    /// (LV2Plugin::latency_compute_run), run the fresh instance once on
    /// silence — its audio ports are still connected to the unit's silence
    /// and scratch buffers — then deactivate and activate it again, which LV2
    /// defines as a reset, so the render starts from a clean instance. The
    /// live worker thread is not started yet, so no work() overlaps the reset.
    /// An instance that keeps its state (`adjustBlockSize`) is not reset:
    /// the run only moves its timeline on by one block of silence.
    func measureLatency(_ instance: LV2Instance, frames: Int, reset: Bool = true) {
        let kernel = instance.kernel
        for reset in kernel.beforeRun { reset.destination.copyMemory(from: reset.source, byteCount: reset.byteCount) }
        PluginCall.marked(FXHOST_CALL_RUN) { kernel.run(kernel.handle, UInt32(max(frames, 1))) }
        if let hook = kernel.afterRun { PluginCall.marked(FXHOST_CALL_WORK_RESPONSE) { hook.function(hook.context) } }
        if reset { instance.reset() }
    }

    /// A file a message parameter (or a preset's state) names may change
    /// the plugin's latency once loaded (x42's convolver: the convolution's
    /// partition), and a plan must know it before the first block. So the
    /// instance takes its messages and loads its files (the worker answering
    /// at once, live too: its thread has not started) in two runs on
    /// silence, writing its latency. A plugin without a latency port
    /// settles too when it was sent messages: its worker's answer tells
    /// whether it took them, before anything plays. A file set later, live,
    /// may change the latency after the plan was made.
    ///
    /// The instance is not reset afterwards (as after the latency probe):
    /// x42's convolver, deactivated and activated again with a long impulse
    /// response loaded, leaves its convolution threads behind, waiting in
    /// memory freed with the instance (three more at every bounce, found by
    /// the soak). Two blocks of silence leave a plugin as silent as new.
    private func settleLatency(_ instance: LV2Instance, frames: Int) {
        let kernel = instance.kernel
        instance.withSynchronousWorker {
            for _ in 0..<2 {
                for reset in kernel.beforeRun { reset.destination.copyMemory(from: reset.source, byteCount: reset.byteCount) }
                for hook in kernel.fillBeforeRun { hook.function(hook.context) }
                PluginCall.marked(FXHOST_CALL_RUN) { kernel.run(kernel.handle, UInt32(max(frames, 1))) }
                if let hook = kernel.afterRun { PluginCall.marked(FXHOST_CALL_WORK_RESPONSE) { hook.function(hook.context) } }
            }
        }
    }

    /// A new format starts a new set of instances (they are made for one rate
    /// and block size). The unit lets go of the old ones; plans still running
    /// them keep them alive through their kernels' owners. Going back to the
    /// format before, while a plan still holds its instances, takes them up
    /// again: a live session that compiles an offline plan for a bounce and
    /// then its live plan again keeps the instances (and the sound) it plays.
    private func resetFormat(_ format: RenderFormat) {
        let left = self.format.map { EarlierInstances(format: $0, instances: instances, formatMemory: formatMemory) }
        if let earlier, earlier.format == format, let alive = earlier.aliveInstances {
            instances = alive
            formatMemory = earlier.formatMemory
        } else {
            instances.removeAll()
            formatMemory = FormatMemory(format)
        }
        earlier = left
        self.format = format
    }
}

/// The instances of a unit's previous format, held weakly: they live only
/// as long as a plan runs them.
struct EarlierInstances {
    let format: RenderFormat
    private let instances: [Weak]
    let formatMemory: FormatMemory?

    private struct Weak { weak var instance: LV2Instance? }

    init(format: RenderFormat, instances: [LV2Instance], formatMemory: FormatMemory?) {
        self.format = format
        self.instances = instances.map { Weak(instance: $0) }
        self.formatMemory = formatMemory
    }

    /// Every instance, or nil once any has gone.
    var aliveInstances: [LV2Instance]? {
        let alive = instances.compactMap(\.instance)
        return alive.count == instances.count && !alive.isEmpty ? alive : nil
    }
}
