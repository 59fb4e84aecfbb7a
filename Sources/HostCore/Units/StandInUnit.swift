import Glibc

/// What plays in place of a plugin that crashed in its instantiate(): the
/// plugin's description (ports, parameters, values, message parameters) and
/// no plugin code at all. Its node stays in the graph with its ports and
/// wiring, bypassed (`enabledControl` is nil, so the host passes the input
/// through where the channels allow, else silence); run, it writes silence.
/// A supervisor's engine makes one for each node left out that way, until
/// `restore` tries the plugin again.
package final class StandInUnit: ProcessingUnit {
    private let unit: any ProcessingUnit

    /// `unit` as made from its description; it is never asked for instances.
    package init(standingInFor unit: any ProcessingUnit) {
        self.unit = unit
    }

    package var displayName: String { unit.displayName }
    package var identifier: String? { unit.identifier }
    package var presetLabels: [String] { unit.presetLabels }
    package var inputPorts: [AudioPortInfo] { unit.inputPorts }
    package var outputPorts: [AudioPortInfo] { unit.outputPorts }
    package var parameters: [ParameterInfo] { unit.parameters }
    package var midiInputs: [String] { unit.midiInputs }
    package var midiOutputs: [String] { unit.midiOutputs }

    package func setParameter(_ symbol: String, to value: ParameterValue) throws(UnitError) {
        try unit.setParameter(symbol, to: value)
    }

    package func parameterValue(_ symbol: String) -> Float? { unit.parameterValue(symbol) }

    package func applyPreset(_ name: String) throws(UnitError) {
        throw UnitError("`\(displayName)` is left out after it crashed as it was made, so it takes no preset until it is restored")
    }

    package func prepareInstances(count: Int, format: RenderFormat) throws(UnitError) -> PreparedUnit {
        let inputs = unit.inputPorts.count, outputs = unit.outputPorts.count
        let kernels = (0..<max(count, 0)).map { _ in
            let instance = StandInInstance(ports: inputs + outputs, firstOutput: inputs)
            return ProcessorKernel(handle: UnsafeMutableRawPointer(instance.ports), run: StandInInstance.run,
                                   connect: StandInInstance.connect,
                                   inputPorts: (0..<inputs).map(UInt32.init),
                                   outputPorts: (inputs..<inputs + outputs).map(UInt32.init), owner: instance)
        }
        return PreparedUnit(kernels: kernels)
    }

    package func controlPointer(symbol: String) -> UnsafeMutablePointer<Float>? { unit.controlPointer(symbol: symbol) }

    package func checkedValue(_ symbol: String, _ value: ParameterValue) throws(UnitError) -> Float {
        try unit.checkedValue(symbol, value)
    }

    package func presetParameterValues(_ name: String) throws(UnitError) -> (values: [String: Float], carriesState: Bool)? {
        throw UnitError("`\(displayName)` is left out after it crashed as it was made, so it takes no preset until it is restored")
    }

    // Message parameters are kept as set (what `save` and a restart write), never sent.
    package func isMessageParameter(_ name: String) -> Bool { unit.isMessageParameter(name) }
    package func messageParameterShortName(_ name: String) -> String? { unit.messageParameterShortName(name) }
    package func messageParameterValues() -> [String: String] { unit.messageParameterValues() }
    package var writableMessageParameters: [WritableMessageParameter] { unit.writableMessageParameters }
    package func messageParametersSet() -> [MessageParameterSetting] { unit.messageParametersSet() }

    package func setMessageParameter(_ name: String, to value: ParameterValue, relativeTo folder: String?) throws(UnitError) -> String {
        try unit.setMessageParameter(name, to: value, relativeTo: folder)
    }

    package func checkedMessageParameter(_ name: String, _ value: ParameterValue, relativeTo folder: String?) throws(UnitError) -> String {
        try unit.checkedMessageParameter(name, value, relativeTo: folder)
    }
}

/// One stand-in instance: where its ports are connected, in memory the
/// kernel's handle points at; `run` clears its outputs. Realtime-safe.
final class StandInInstance {
    struct Ports {
        var firstOutput: Int
        var count: Int
        var buffers: UnsafeMutablePointer<UnsafeMutableRawPointer?>
    }

    let ports: UnsafeMutablePointer<Ports>

    init(ports count: Int, firstOutput: Int) {
        let buffers = UnsafeMutablePointer<UnsafeMutableRawPointer?>.allocate(capacity: max(count, 1))
        buffers.initialize(repeating: nil, count: max(count, 1))
        ports = .allocate(capacity: 1)
        ports.initialize(to: Ports(firstOutput: firstOutput, count: count, buffers: buffers))
    }

    deinit {
        ports.pointee.buffers.deallocate()
        ports.deinitialize(count: 1)
        ports.deallocate()
    }

    static let connect: KernelConnectFunction = { handle, port, data in
        guard let ports = handle?.assumingMemoryBound(to: Ports.self), Int(port) < ports.pointee.count else { return }
        ports.pointee.buffers[Int(port)] = data
    }

    static let run: KernelRunFunction = { handle, frames in
        guard let ports = handle?.assumingMemoryBound(to: Ports.self) else { return }
        for port in ports.pointee.firstOutput..<ports.pointee.count {
            if let buffer = ports.pointee.buffers[port] { memset(buffer, 0, Int(frames) * MemoryLayout<Float>.stride) }
        }
    }
}
