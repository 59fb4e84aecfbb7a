import HostCore
@testable import LV2Bridge
import TestSupport
import XCTest

final class AmpTests: XCTestCase {
    /// eg-amp with gain -6 dB multiplies by 10^(-6/20) = 0.501187.
    func testAmpAppliesGainInDecibels() throws {
        let unit = try Installed.unit("http://lv2plug.in/plugins/eg-amp")
        try unit.setParameter("gain", to: .number(-6))
        let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 256, mode: .offline)
        let kernel = try XCTUnwrap(try unit.prepareInstances(count: 1, format: format).kernels.first)
        XCTAssertEqual(kernel.inputPorts.count, 1)
        XCTAssertEqual(kernel.outputPorts.count, 1)
        let driver = KernelDriver(kernel, maxBlock: 256)
        let factor = pow(10.0, -6.0 / 20.0)
        var noise = Noise()
        var checked = 0
        for block in 0..<20 {
            let frames = block == 19 ? 100 : 256 // a short last block, as at the end of a file
            var input = [Float](repeating: 0, count: frames)
            driver.runBlock(frames: frames) { _, buffer in
                for frame in 0..<frames {
                    input[frame] = noise.next()
                    buffer[frame] = input[frame]
                }
            }
            for frame in 0..<frames {
                let expected = Double(input[frame]) * factor
                let error = abs(Double(driver.outputs[0][frame]) - expected)
                XCTAssertLessThanOrEqual(error, 1e-6 * abs(Double(input[frame])) + 1e-12,
                                         "frame \(frame) of block \(block)")
                checked += 1
            }
        }
        XCTAssertEqual(checked, 19 * 256 + 100)
    }

    /// Every instance of one unit reads the same input controls.
    func testParameterReachesEveryInstance() throws {
        let unit = try Installed.unit("eg-amp")
        let format = RenderFormat(sampleRate: 48000, maxBlockFrames: 64, mode: .offline)
        let kernels = try unit.prepareInstances(count: 2, format: format).kernels
        try unit.setParameter("gain", to: .number(-20)) // ×0.1
        for kernel in kernels {
            let driver = KernelDriver(kernel, maxBlock: 64)
            driver.runBlock(frames: 64) { _, buffer in buffer.update(repeating: 1, count: 64) }
            XCTAssertEqual(Double(driver.outputs[0][63]), 0.1, accuracy: 1e-6)
        }
        // The same instances come back first, so a rebuilt plan keeps them.
        let again = try unit.prepareInstances(count: 3, format: format).kernels
        XCTAssertEqual(again.count, 3)
        XCTAssertEqual(again[0].handle, kernels[0].handle)
        XCTAssertEqual(again[1].handle, kernels[1].handle)
        XCTAssertNotEqual(again[2].handle, kernels[1].handle)
    }
}

final class LatencyTests: XCTestCase {
    /// swh's Fast Lookahead Limiter reports `delay = (int)(0.005 * fs)` frames
    /// (its plugin.ttl source): 240 at 48 kHz, 220 at 44.1 kHz.
    func testLatencyIsKnownBeforeTheFirstBlock() throws {
        for (rate, expected) in [(48000.0, 240), (44100.0, 220)] {
            let unit = try Installed.unit("http://plugin.org.uk/swh-plugins/fastLookaheadLimiter")
            XCTAssertTrue(unit.plugin.reportsLatency)
            let format = RenderFormat(sampleRate: rate, maxBlockFrames: 128, mode: .offline)
            // The plugin writes its latency port only in run(): preparing runs it once on silence.
            XCTAssertEqual(try unit.prepareInstances(count: 1, format: format).latencyFrames, expected, "at \(rate) Hz")
        }
    }
}

final class RefusalTests: XCTestCase {
    /// No installed plugin needs a feature we lack, so one is added to a real description.
    func testUnsupportedRequiredFeatureIsNamed() throws {
        var amp = try Installed.catalog.resolve("eg-amp")
        amp.requiredFeatures.append("http://example.org/ns#teleport")
        XCTAssertThrowsError(try LV2Unit(plugin: amp, catalog: Installed.catalog)) { error in
            XCTAssertEqual((error as? UnitError)?.message, "`Simple Amplifier` (http://lv2plug.in/plugins/eg-amp) "
                + "requires the LV2 feature http://example.org/ns#teleport, which fxhost does not provide")
        }
    }

    func testLibraryThatDoesNotLoadGivesTheLoaderReason() throws {
        // The probe plugin built to need a symbol no library defines, as
        // swh's mbeq needs fftw symbols its Debian build lacks.
        let folder = try makeScratchFolder(prefix: "unloadable")
        let library = try ProbePlugin.buildLibrary(in: folder.appendingPathComponent("build"), unloadable: true)
        let bundles = try ProbePlugin.bundle(in: folder.appendingPathComponent("lv2"), library: library)
        let earlier = ProcessInfo.processInfo.environment["LV2_PATH"]
        setenv("LV2_PATH", bundles.path, 1)
        defer { if let earlier { setenv("LV2_PATH", earlier, 1) } else { unsetenv("LV2_PATH") } }
        let catalog = PluginCatalog()
        let unit = try LV2Unit(plugin: catalog.resolve(ProbePlugin.uri), catalog: catalog)
        XCTAssertThrowsError(try unit.prepareInstances(
            count: 1, format: RenderFormat(sampleRate: 48000, maxBlockFrames: 64, mode: .offline))) { error in
            let message = (error as? UnitError)?.message ?? ""
            XCTAssertTrue(message.hasPrefix("`fxhost probe` (\(ProbePlugin.uri)) failed to instantiate at 48000 Hz: "
                + "its library does not load (\(library.path): undefined symbol: "
                + "fxhost_probe_symbol_no_library_defines)"), message)
        }
    }
}
