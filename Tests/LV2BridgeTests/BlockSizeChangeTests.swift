import Foundation
import HostCore
@testable import LV2Bridge
import TestSupport
import XCTest

/// A block-size change for plugins with LV2's options interface: x42's IR
/// convolver keeps its instance and its impulse response and is told the
/// new length. The oracles are the plugin's own: with an IR of `gain` at
/// frame 480 an impulse comes out as `gain` exactly 480 frames after the
/// latency it reports (its buffered mode, the default, adds one partition
/// of its convolution engine: 64 frames in Debian's 20221119 build);
/// without an IR it outputs silence and reports 0.
final class BlockSizeChangeTests: XCTestCase {
    private let delay = 480
    private let gain: Float = 0.5

    private func format(_ frames: Int) -> RenderFormat {
        RenderFormat(sampleRate: 48_000, maxBlockFrames: frames, mode: .offline)
    }

    private func convolver() throws -> LV2Unit {
        let folder = try makeScratchFolder(prefix: "block-size")
        let bundle = try ConvolverPreset.write(in: folder, delay: delay, gain: gain)
        let catalog = PluginCatalog(world: LV2World(bundles: try ConvolverPreset.bundles(with: bundle)))
        let unit = try XCTUnwrap(try LV2UnitProvider(catalog: catalog).makeUnit(ConvolverPreset.plugin) as? LV2Unit)
        try unit.applyPreset(ConvolverPreset.label())
        return unit
    }

    /// Runs blocks of `frames` (one of silence first, for the worker's
    /// answer that puts the IR online), then an impulse: returns where the
    /// loudest output sample came, counted from the impulse, and its value.
    private func echo(of kernel: ProcessorKernel, frames: Int) -> (frame: Int, value: Float) {
        let driver = KernelDriver(kernel, maxBlock: frames)
        driver.runBlock(frames: frames) { _, buffer in buffer.update(repeating: 0, count: frames) }
        var output: [Float] = []
        for block in 0..<((delay + 2 * frames) / frames + 2) {
            driver.runBlock(frames: frames) { _, buffer in
                buffer.update(repeating: 0, count: frames)
                if block == 0 { buffer[0] = 1 }
            }
            output += UnsafeBufferPointer(start: driver.outputs[0], count: frames)
        }
        let loudest = output.indices.max { abs(output[$0]) < abs(output[$1]) }!
        return (loudest, output[loudest])
    }

    func testTheConvolverKeepsItsInstanceAndImpulseResponseAndIsToldTheNewLength() throws {
        let unit = try convolver()
        let before = try unit.prepareInstances(count: 1, format: format(256))
        let instance = try XCTUnwrap(before.kernels.first?.owner as? LV2Instance)
        XCTAssertTrue(instance.hasOptionsInterface)
        let first = echo(of: before.kernels[0], frames: 256)
        let latency = instance.latencyFrames
        XCTAssertGreaterThan(latency, 0, "an IR is loaded")
        XCTAssertEqual(first.frame, delay + latency, "the IR's delay after the latency the plugin reports")
        XCTAssertEqual(first.value, gain, accuracy: 1e-4)

        XCTAssertTrue(try unit.adjustBlockSize(to: format(512)))
        let after = try unit.prepareInstances(count: 1, format: format(512))
        XCTAssertTrue(after.kernels.first?.owner === instance, "the same instance, not a new one")
        XCTAssertEqual(after.latencyFrames, latency, "measured again, the IR still loaded (0 without)")
        XCTAssertEqual(instance.blockLengthOptions.maximum.pointee, 512)
        XCTAssertEqual(instance.blockLengthOptions.nominal.pointee, 512)
        let second = echo(of: after.kernels[0], frames: 512)
        XCTAssertEqual(second.frame, delay + latency, "still the same IR, in blocks of 512")
        XCTAssertEqual(second.value, gain, accuracy: 1e-4)
    }

    /// Compiling for another block size without the call (while a plan may
    /// still run the instances) makes new instances as before.
    func testWithoutTheCallAnotherBlockSizeStillMakesNewInstances() throws {
        let unit = try convolver()
        let before = try unit.prepareInstances(count: 1, format: format(256))
        let after = try unit.prepareInstances(count: 1, format: format(512))
        XCTAssertFalse(after.kernels.first?.owner === before.kernels.first?.owner)
    }

    /// The block-length probe (Tests/TestPlugin/probe_blocks.c) reports the
    /// nominal length it was last told as its latency, and refuses more
    /// than 1024 frames.
    private func probe() throws -> LV2Unit {
        let folder = try makeScratchFolder(prefix: "block-size-probe")
        let library = try ProbePlugin.buildLibrary(in: folder)
        let bundle = try ProbePlugin.blocksBundle(in: folder, library: library)
        let catalog = PluginCatalog(world: LV2World(bundles: try ConvolverPreset.bundles(with: bundle.path)))
        return try XCTUnwrap(try LV2UnitProvider(catalog: catalog).makeUnit(ProbePlugin.blocksURI) as? LV2Unit)
    }

    private func live(_ frames: Int) -> RenderFormat {
        RenderFormat(sampleRate: 48_000, maxBlockFrames: frames, mode: .live)
    }

    func testThePluginIsToldTheNewLengthAndARefusalMakesNewInstances() throws {
        let unit = try probe()
        let first = try unit.prepareInstances(count: 2, format: live(256))
        XCTAssertEqual(first.latencyFrames, 256, "told at instantiate")
        XCTAssertTrue(try unit.adjustBlockSize(to: live(512)))
        let second = try unit.prepareInstances(count: 2, format: live(512))
        XCTAssertEqual(second.latencyFrames, 512, "told through set(), and measured again")
        for (old, new) in zip(first.kernels, second.kernels) { XCTAssertTrue(old.owner === new.owner) }

        // 2048 is more than the probe takes: set() refuses, new instances are told at instantiate.
        XCTAssertFalse(try unit.adjustBlockSize(to: live(2048)))
        let third = try unit.prepareInstances(count: 2, format: live(2048))
        XCTAssertEqual(third.latencyFrames, 2048)
        for (old, new) in zip(second.kernels, third.kernels) { XCTAssertFalse(old.owner === new.owner) }
    }

    /// A bounce's offline instances and the live ones stay apart across a
    /// block-size change: after it, the next bounce takes up its earlier
    /// offline instances (still held by their plan) and going back to live
    /// takes up the live instances that were told the new length.
    func testABounceAfterTheChangeFindsTheInstancesOfEachFormat() throws {
        let unit = try probe()
        let live256 = try unit.prepareInstances(count: 1, format: live(256))
        let offline = try unit.prepareInstances(count: 1, format: format(256))
        XCTAssertFalse(offline.kernels[0].owner === live256.kernels[0].owner)
        XCTAssertTrue(try unit.prepareInstances(count: 1, format: live(256)).kernels[0].owner === live256.kernels[0].owner)
        XCTAssertTrue(try unit.adjustBlockSize(to: live(512)))
        XCTAssertTrue(try unit.prepareInstances(count: 1, format: live(512)).kernels[0].owner === live256.kernels[0].owner)
        let bounce = try unit.prepareInstances(count: 1, format: format(256))
        XCTAssertTrue(bounce.kernels[0].owner === offline.kernels[0].owner)
        XCTAssertEqual(bounce.latencyFrames, 256, "the offline instances were not told")
        let back = try unit.prepareInstances(count: 1, format: live(512))
        XCTAssertTrue(back.kernels[0].owner === live256.kernels[0].owner)
        XCTAssertEqual(back.latencyFrames, 512)
        // A live plan compiled at the old length while one at the new plays gets instances of its own.
        XCTAssertFalse(try unit.prepareInstances(count: 1, format: live(256)).kernels[0].owner === live256.kernels[0].owner)
    }

    /// eg-amp has no options interface: new instances, as for any format.
    func testAPluginWithoutTheInterfaceGetsNewInstances() throws {
        let amp = try Installed.unit("http://lv2plug.in/plugins/eg-amp")
        let before = try amp.prepareInstances(count: 2, format: format(256))
        XCTAssertFalse(try XCTUnwrap(before.kernels.first?.owner as? LV2Instance).hasOptionsInterface)
        XCTAssertFalse(try amp.adjustBlockSize(to: format(512)))
        let after = try amp.prepareInstances(count: 2, format: format(512))
        for (old, new) in zip(before.kernels, after.kernels) { XCTAssertFalse(old.owner === new.owner) }
        // Nor does a rate change keep them, with or without the interface.
        XCTAssertFalse(try amp.adjustBlockSize(to: RenderFormat(sampleRate: 44_100, maxBlockFrames: 512, mode: .offline)))
    }
}
