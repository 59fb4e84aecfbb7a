import CLilv
import HostCore

/// Called by: the control thread (`send`, `takeNotifications`, making and
/// freeing it) and the thread that renders the instance (the two hooks).
///
/// One instance's patch messages. Messages the host forged (`patch:Set`,
/// `patch:Get`) wait in a ring until the next block, where the fill hook
/// (the first of the kernel's `fillBeforeRun` hooks) appends them at frame
/// 0 to the plugin's control atom input. After the run, the after-run hook
/// delivers worker responses, then copies each `patch:Set` or `patch:Put`
/// the plugin wrote to its notify output into a second ring, which the
/// control thread decodes (`PatchMessageDecoder`). Both rings are
/// single-producer single-consumer `ByteRing`s; nothing here allocates
/// on the rendering side.
final class PatchMessagePort {
    /// What the hooks touch: plain values and pointers.
    struct State {
        var input: UnsafeMutablePointer<LV2_Atom_Sequence>?
        var inputCapacity: UInt32
        var notify: UnsafeMutablePointer<LV2_Atom_Sequence>?
        var toPlugin: ByteRing
        var fromPlugin: ByteRing
        /// One event being appended: a frame time, then the message's atom.
        var event: UnsafeMutableRawPointer
        /// The instance's worker's after-run hook (its responses, then
        /// end_run), called first after a run.
        var workerHook: KernelHook?
        var sequenceType, objectType, blankType, setType, putType: LV2_URID
    }

    static let ringCapacity = 1 << 16
    let state: UnsafeMutablePointer<State>

    init(input: AtomPortBuffer?, notify: AtomPortBuffer?, worker: LV2Worker?, urids: URIDMap) {
        let toPlugin = ByteRing(capacity: Self.ringCapacity)
        state = .allocate(capacity: 1)
        state.initialize(to: State(
            input: input?.sequence, inputCapacity: input?.capacity ?? 0, notify: notify?.sequence,
            toPlugin: toPlugin, fromPlugin: ByteRing(capacity: Self.ringCapacity),
            event: .allocate(byteCount: toPlugin.capacity + 16, alignment: 8), workerHook: worker?.afterRunHook,
            sequenceType: urids.map(LV2URI.atomSequence), objectType: urids.map(LV2URI.atomObject),
            blankType: urids.map(LV2URI.atomBlank), setType: urids.map(LV2URI.patchSet),
            putType: urids.map(LV2URI.patchPut)))
    }

    deinit {
        state.pointee.toPlugin.deallocate()
        state.pointee.fromPlugin.deallocate()
        state.pointee.event.deallocate()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Queues one message (an atom's bytes) for the start of the next
    /// block; false when the ring is full, there is no input to take it, or
    /// it could never fit the input (an event's 8-byte time, beside the
    /// sequence's 8-byte header): left in the ring, it would hold up every
    /// message after it.
    func send(_ message: [UInt8]) -> Bool {
        guard state.pointee.input != nil, message.count + 16 <= Int(state.pointee.inputCapacity) else { return false }
        return message.withUnsafeBytes { state.pointee.toPlugin.write($0.baseAddress, size: UInt32($0.count)) }
    }

    /// Messages queued that the realtime thread has not yet handed the plugin.
    var hasPendingMessages: Bool { state.pointee.toPlugin.nextSize() != nil }

    /// The `patch:Set`/`patch:Put` atoms the plugin has written since the last call.
    func takeNotifications() -> [[UInt8]] {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: Self.ringCapacity, alignment: 8)
        defer { buffer.deallocate() }
        var messages: [[UInt8]] = []
        while let size = state.pointee.fromPlugin.take(into: buffer) {
            messages.append(Array(UnsafeRawBufferPointer(start: buffer, count: Int(size))))
        }
        return messages
    }

    var fillHook: KernelHook {
        KernelHook(function: { context in
            PatchMessagePort.fill(context!.assumingMemoryBound(to: State.self))
        }, context: UnsafeMutableRawPointer(state))
    }

    /// Replaces the worker's after-run hook: delivers its responses, then reads notify.
    var afterRunHook: KernelHook {
        KernelHook(function: { context in
            PatchMessagePort.afterRun(context!.assumingMemoryBound(to: State.self))
        }, context: UnsafeMutableRawPointer(state))
    }

    // MARK: Realtime side

    /// Appends every queued message that fits at frame 0; one that does not
    /// fit waits for the next block.
    @_noLocks
    static func fill(_ state: UnsafeMutablePointer<State>) {
        guard let input = state.pointee.input else { return }
        let capacity = state.pointee.inputCapacity
        let event = state.pointee.event
        while let size = state.pointee.toPlugin.nextSize() {
            let used = input.pointee.atom.size
            // An event is its 8-byte time and the atom (lv2_atom_sequence_append_event's test).
            guard used <= capacity, capacity - used >= 8 + size else { return }
            guard state.pointee.toPlugin.take(into: event + 8) != nil else { return }
            event.storeBytes(of: Int64(0), as: Int64.self)
            _unsafePerformance {
                _ = lv2_atom_sequence_append_event(input, capacity, event.assumingMemoryBound(to: LV2_Atom_Event.self))
            }
        }
    }

    @_noLocks
    static func afterRun(_ state: UnsafeMutablePointer<State>) {
        if let hook = state.pointee.workerHook { _unsafePerformance { hook.function(hook.context) } }
        guard let notify = state.pointee.notify, notify.pointee.atom.type == state.pointee.sequenceType else { return }
        // The sequence's body: its unit and pad (8 bytes), then the events.
        let body = UnsafeRawPointer(notify) + MemoryLayout<LV2_Atom>.size
        let total = Int(notify.pointee.atom.size)
        var offset = MemoryLayout<LV2_Atom_Sequence_Body>.size
        while offset + 16 <= total {
            let event = body + offset
            let atomSize = event.loadUnaligned(fromByteOffset: 8, as: UInt32.self)
            let atomType = event.loadUnaligned(fromByteOffset: 12, as: UInt32.self)
            if atomType == state.pointee.objectType || atomType == state.pointee.blankType, atomSize >= 8,
               offset + 16 + Int(atomSize) <= total {
                let objectType = event.loadUnaligned(fromByteOffset: 20, as: UInt32.self)
                if objectType == state.pointee.setType || objectType == state.pointee.putType {
                    _ = state.pointee.fromPlugin.write(event + 8, size: 8 + atomSize)
                }
            }
            offset += (16 + Int(atomSize) + 7) & ~7
        }
    }
}

extension PatchMessagePort {
    /// The instance's message port when the plugin has message parameters:
    /// the atom input that supports `patch:Message` (else the first atom
    /// input) and the atom output that does (else none: nothing to read).
    static func make(_ context: InstanceContext, atomPorts: [AtomPortBuffer], worker: LV2Worker?) -> PatchMessagePort? {
        guard !context.description.properties.isEmpty else { return nil }
        let message = lilv_new_uri(context.world.world, LV2URI.patchMessage)
        defer { lilv_node_free(message) }
        func supportsMessages(_ buffer: AtomPortBuffer) -> Bool {
            guard let port = lilv_plugin_get_port_by_index(context.plugin, buffer.port.index) else { return false }
            return lilv_port_supports_event(context.plugin, port, message)
        }
        let inputs = atomPorts.filter { $0.port.direction == .input }
        let outputs = atomPorts.filter { $0.port.direction == .output }
        guard let input = inputs.first(where: supportsMessages) ?? inputs.first else { return nil }
        return PatchMessagePort(input: input, notify: outputs.first(where: supportsMessages), worker: worker,
                                urids: context.world.urids)
    }
}
