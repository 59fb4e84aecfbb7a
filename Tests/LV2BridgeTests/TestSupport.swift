import HostCore
@testable import LV2Bridge
import XCTest

/// One lilv world for the whole test run (loading every bundle takes a moment).
enum Installed {
    static let catalog = PluginCatalog(world: LV2World())
    static let provider = LV2UnitProvider(catalog: catalog)

    /// The installed effects: plugins with main audio inputs and outputs.
    static var effects: [PluginDescription] {
        catalog.plugins.filter { !$0.mainAudioInputs.isEmpty && !$0.mainAudioOutputs.isEmpty }
    }

    /// Effects this host refuses, by URI, with words their refusal gives:
    /// swh's FFT plugins, whose libraries miss a symbol of fftw.
    static let refusedEffects = [
        "http://plugin.org.uk/swh-plugins/mbeq": "its library does not load",
        "http://plugin.org.uk/swh-plugins/pitchScaleHQ": "its library does not load",
    ]

    static func unit(_ reference: String) throws -> LV2Unit {
        try XCTUnwrap(try provider.makeUnit(reference) as? LV2Unit)
    }
}

/// Drives one kernel the way a plan does: its own input/output buffers,
/// memory resets and the fill hooks before each run, the after-run hook after it.
final class KernelDriver {
    let kernel: ProcessorKernel
    let maxBlock: Int
    let inputs: [UnsafeMutablePointer<Float>]
    let outputs: [UnsafeMutablePointer<Float>]

    init(_ kernel: ProcessorKernel, maxBlock: Int) {
        self.kernel = kernel
        self.maxBlock = maxBlock
        inputs = kernel.inputPorts.map { _ in .allocate(capacity: maxBlock) }
        outputs = kernel.outputPorts.map { _ in .allocate(capacity: maxBlock) }
        for buffer in inputs + outputs { buffer.initialize(repeating: 0, count: maxBlock) }
        for (port, buffer) in zip(kernel.inputPorts, inputs) { kernel.connect(kernel.handle, port, buffer) }
        for (port, buffer) in zip(kernel.outputPorts, outputs) { kernel.connect(kernel.handle, port, buffer) }
    }

    deinit {
        for buffer in inputs + outputs { buffer.deallocate() }
    }

    /// Runs one block: `fill(channel, buffer)` writes the inputs first;
    /// `beforeRun` runs after the resets and the kernel's fill hooks
    /// (where a plan feeds atom inputs, after the unit's own events).
    func runBlock(frames: Int, fill: (Int, UnsafeMutablePointer<Float>) -> Void, beforeRun: () -> Void = {}) {
        for (channel, buffer) in inputs.enumerated() { fill(channel, buffer) }
        for reset in kernel.beforeRun {
            reset.destination.copyMemory(from: reset.source, byteCount: reset.byteCount)
        }
        for hook in kernel.fillBeforeRun { hook.function(hook.context) }
        beforeRun()
        kernel.run(kernel.handle, UInt32(frames))
        if let hook = kernel.afterRun { hook.function(hook.context) }
    }
}

/// Reproducible white noise in -0.5…0.5 (a 32-bit LCG).
struct Noise {
    var state: UInt32 = 12345

    mutating func next() -> Float {
        state = state &* 1_664_525 &+ 1_013_904_223
        return Float(state >> 8) / Float(1 << 24) - 0.5
    }
}
